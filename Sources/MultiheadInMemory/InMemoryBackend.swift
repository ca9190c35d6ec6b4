import Multihead

/// A backend with no display server, for pure model tests: a script says which screens come and go,
/// and it records what would be shown (swift-nio's embedded channel, SDL's dummy video driver).
@MainActor
public final class InMemoryBackend: DisplayBackend {
    /// One window as the backend was asked to show it.
    public struct Shown: Hashable, Sendable {
        /// The model window's identity.
        public var id: ObjectIdentifier
        /// The screen it is on.
        public var screenName: String
        /// Its rectangle on the desktop.
        public var frame: Rect
        /// Its level.
        public var level: WindowLevel
        /// Whether it was marked for redraw in that presentation.
        public var redrawn: Bool
    }

    /// The monitors the script has connected now.
    public private(set) var snapshot: [ScreenDescription]
    /// The visible windows of the last presentation, back to front.
    public private(set) var shown: [Shown] = []
    /// How many times the model presented.
    public private(set) var presentations = 0
    /// The window the model last focused, if any.
    public private(set) var focused: ObjectIdentifier?
    /// When set, `setMode` throws with this reason.
    public var refuseModeChanges: String?
    private var input: BackendInput?

    /// Makes the backend with a first set of monitors (by default one 1920×1080 screen named "MAIN").
    public init(screens: [ScreenDescription] = [
        ScreenDescription(name: "MAIN", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), isPrimary: true),
    ]) {
        snapshot = screens
    }

    /// Connects a monitor; the model posts the connect notification before this returns.
    public func connect(_ screen: ScreenDescription) {
        snapshot.removeAll { $0.name == screen.name }
        snapshot.append(screen)
        report()
    }

    /// Disconnects a monitor by name; the model posts the disconnect notification before this returns.
    public func disconnect(_ name: String) {
        snapshot.removeAll { $0.name == name }
        report()
    }

    /// Changes a monitor's description (mode, frame, brightness) as the hardware would.
    public func change(_ name: String, _ body: (inout ScreenDescription) -> Void) {
        guard let i = snapshot.firstIndex(where: { $0.name == name }) else { return }
        body(&snapshot[i])
        report()
    }

    /// Delivers an input event as if the display server had sent it.
    public func inject(_ event: Event) { input?.send(event) }

    /// The input focus comes to one of the application's windows, or leaves all of them, as a window
    /// manager or another client would move it.
    public func changeFocus(appHasFocus: Bool) { input?.focusChanged(appHasFocus: appHasFocus) }

    private func report() { input?.screensDidChange(snapshot) }

    /// Returns the scripted snapshot.
    public func start(input: BackendInput) throws -> [ScreenDescription] {
        self.input = input
        return snapshot
    }

    /// The scripted snapshot.
    public func readScreens() throws -> [ScreenDescription] { snapshot }

    /// Nothing waits in memory.
    public func processPendingEvents() {}

    /// Forgets the model.
    public func stop() { input = nil }

    /// Switches the mode at once (the frame takes the mode's size) unless `refuseModeChanges` is set.
    public func setMode(_ mode: ScreenMode, forScreenNamed name: String) throws {
        if let why = refuseModeChanges { throw ScreenError.refused(screen: name, reason: why) }
        change(name) {
            $0.currentMode = mode
            $0.frame.size = mode.size
        }
    }

    /// Records the brightness as hardware would.
    public func setBrightness(_ value: Double, forScreenNamed name: String) throws {
        guard let i = snapshot.firstIndex(where: { $0.name == name }) else { return }
        snapshot[i].brightness = value
    }

    /// Records the scene.
    public func present(_ scene: Scene) {
        presentations += 1
        shown = scene.windows.map {
            Shown(id: ObjectIdentifier($0.window), screenName: $0.screenName, frame: $0.frameOnDesktop,
                  level: $0.level, redrawn: $0.needsDisplay)
        }
    }

    /// Records the focus.
    public func focus(_ window: Window?) { focused = window.map(ObjectIdentifier.init) }
}
