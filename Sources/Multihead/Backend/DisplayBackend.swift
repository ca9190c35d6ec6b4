/// What the model needs from a display system: SDL's table of backend functions, as a protocol.
///
/// The X11 backend (`MultiheadX11`) and the in-memory backend (tests) implement it. A backend never
/// calls user code: it reports through the `BackendInput` it is given, and the model decides what
/// that means (connect, disconnect, touches) and posts the notifications. It holds windows only for
/// the scenes it is given: a window that goes is simply not in the next complete scene (the model asks
/// for one at once), so a backend, or a wrapper around one, has nothing to forget. What only one kind
/// of backend can do (the X11 backend's `waitForEvents`) is that backend's own API, not a requirement.
@MainActor
public protocol DisplayBackend: AnyObject {
    /// Connects, starts watching, and returns the first screen snapshot (never empty).
    func start(input: BackendInput) throws -> [ScreenDescription]
    /// Reads the monitors afresh (a round trip to the server); never empty.
    func readScreens() throws -> [ScreenDescription]
    /// Handles whatever events are already waiting, without blocking.
    func processPendingEvents()
    /// Stops watching and releases everything it made.
    func stop()
    /// Switches a monitor to a mode; throws when refused.
    func setMode(_ mode: ScreenMode, forScreenNamed name: String) throws
    /// Sets a monitor's hardware brightness (0…1); throws when the hardware cannot.
    func setBrightness(_ value: Double, forScreenNamed name: String) throws
    /// Shows the visible windows as `scene` lists them, back to front.
    func present(_ scene: Scene)
    /// Whether `present` takes partial scenes (only the windows that changed, `Scene.isComplete` false):
    /// a frame then costs what changed, not every window. False by default: every scene is complete.
    var acceptsPartialScenes: Bool { get }
    /// Gives the keyboard focus to the window shown for `window`, or takes it away (`nil`).
    func focus(_ window: Window?)
    /// A barrier: returns once the display server has answered everything sent so far, with every event
    /// that came before that answer handled. The default handles what is pending (nothing to wait for).
    func synchronize() throws
    /// The pixels the display shows over a desktop rectangle; nil (the default) where the backend
    /// cannot read them back.
    func pixels(in rect: Rect) throws -> Bitmap?
    /// Measures text as this backend draws it; the default is `EstimatedTextMeasurer`.
    var textMeasurer: any TextMeasuring { get }
    /// A frame clock (running animations, a display link) started or stopped. While one runs, the
    /// application calls `processPendingEvents()` once in every frame, before it is drawn, as a game loop
    /// polls, so the backend need not wake on its own for each event: one wake-up a frame instead of two.
    /// The default does nothing.
    func frameClockChanged(isRunning: Bool)
    /// Where a GL view of this backend's windows draws: the display server by name, none (offscreen, no
    /// server), or a connection that is gone. The default: none.
    var graphicsEndpoint: GraphicsEndpoint { get }
}

/// Where GL draws for a backend (`DisplayBackend.graphicsEndpoint`), as a GL view needs to know it
/// without knowing the backend's type.
public enum GraphicsEndpoint: Sendable, Equatable {
    /// No display server: GL draws offscreen on its own (Mesa's surfaceless platform).
    case offscreen
    /// The X server of this display name.
    case x11(display: String)
    /// The backend's connection is gone: there is nothing to draw for. `requested` is the display it was
    /// asked for (nil: `DISPLAY`).
    case disconnected(requested: String?)
}

extension DisplayBackend {
    /// False: every scene lists every visible window.
    public var acceptsPartialScenes: Bool { false }

    /// Handles what is pending: a backend without a server has nothing to wait for.
    public func synchronize() throws { processPendingEvents() }

    /// None: this backend cannot read pixels back.
    public func pixels(in rect: Rect) throws -> Bitmap? { nil }

    /// An estimate: this backend draws no text.
    public var textMeasurer: any TextMeasuring { EstimatedTextMeasurer() }

    /// Nothing: the backend wakes for its events as it always does.
    public func frameClockChanged(isRunning: Bool) {}

    /// Offscreen: a backend without a display server.
    public var graphicsEndpoint: GraphicsEndpoint { .offscreen }
}

/// The model's event input, handed to a backend at `start`: the only way a backend reports anything.
@MainActor
public struct BackendInput {
    weak var application: Application?

    init(_ application: Application) { self.application = application }

    /// The backend re-read the monitors; the model diffs this against the previous snapshot.
    public func screensDidChange(_ snapshot: [ScreenDescription]) {
        application?.screensDidChange(snapshot)
    }

    /// A pointer or key event arrived.
    public func send(_ event: Event) {
        application?.sendEvent(event)
    }

    /// The input focus came to one of the application's windows (`true`) or left all of them: the
    /// application becomes active, or inactive.
    public func focusChanged(appHasFocus: Bool) {
        application?.focusChanged(appHasFocus: appHasFocus)
    }

    /// The backend lost what it showed for `window` (its X window destroyed by another client): the next
    /// scene shows it again, whole, in its place among every window.
    public func windowNeedsShowingAgain(_ window: Window) {
        window.setNeedsDisplay()
        application?.setNeedsFlush()
    }

    /// The connection to the display server is gone; `error` says which and why.
    public func connectionLost(_ error: any Error) {
        application?.connectionLost(error)
    }

    /// The backend cannot go on showing windows (the server's visual is one it cannot draw on, or the
    /// server refused its drawing): as fatal as a lost connection, `run()` throws `error`.
    public func failed(_ error: any Error) {
        application?.connectionLost(error)
    }
}
