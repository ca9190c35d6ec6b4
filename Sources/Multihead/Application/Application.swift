import Foundation
import Logging

/// The application (UIApplication): its screens, its windows back to front, the key window, its state,
/// and the run loop that drives its backend.
///
/// `Application.shared` is the one `Screen.main` and `Window(frame:)` use. Tests make their own with
/// `Application(backend:)` so that they can run side by side.
@MainActor
public final class Application: Responder {
    /// The application that `Screen.screens`, `Screen.main` and `Window(frame:)` use; attach a real
    /// backend with `attach(_:)`. Until then it has none (`hasBackend` is false): one 1920×1080 stand-in
    /// screen, nothing shown, and a warning in the log at the first window it cannot show.
    public private(set) static var shared = Application()

    /// Where the model logs refused input and recovered faults.
    nonisolated public static let logger = Logger(label: "multihead")

    /// The backend that reports screens and shows windows.
    public private(set) var backend: any DisplayBackend
    /// The connected screens, main first, then by (y, x).
    public internal(set) var screens: [Screen] = []
    /// Receives the application's lifecycle events.
    public weak var delegate: (any ApplicationDelegate)?
    /// Where the application is in its lifecycle.
    public internal(set) var state: State = .inactive
    /// The error that ended the backend's connection, once it has.
    public internal(set) var connectionError: (any Error)?

    /// The run loop's state: launched, a stop asked for, work queued while suspended, a flush pending.
    var loop = RunLoopState()
    /// The windows, their order and the key window.
    var stack = WindowStack()
    /// The touches and presses in progress, and where each goes.
    var tracking = InputTracking()
    /// The one frame clock: display links and animations, one wake-up and one flush a frame.
    lazy var frameClock = FrameClock(application: self)
    let screenListeners = EventRegistry<ScreenEvent>()
    let windowListeners = EventRegistry<WindowEvent>()

    /// Makes an application over a backend, started at once.
    public init(backend: any DisplayBackend) throws {
        self.backend = backend
        super.init()
        try start(backend)
    }

    /// The default application: no backend yet.
    override convenience init() {
        // The detached backend cannot fail to start.
        do { try self.init(backend: DetachedBackend()) } catch {
            fatalError("the detached backend failed to start: \(error)")
        }
    }

    /// Whether a backend is attached: false for `Application.shared` until `attach(_:)`, and after
    /// `detach()`.
    public var hasBackend: Bool { !(backend is DetachedBackend) }

    /// Lets the backend go (it stops): the application has no display again, as before `attach(_:)`.
    /// The screens are replaced by the stand-in without notifications.
    public func detach() {
        guard hasBackend else { return }
        // The detached backend cannot fail to start.
        try? attach(DetachedBackend())
    }

    /// Replaces the backend (for example with the X11 one): the screens are re-read without
    /// connect or disconnect notifications, as at launch.
    public func attach(_ newBackend: any DisplayBackend) throws {
        let old = backend
        backend = newBackend
        do { try start(newBackend) } catch {
            backend = old
            throw error
        }
        old.stop()
        if frameClock.isRunning { newBackend.frameClockChanged(isRunning: true) }
    }

    private func start(_ b: any DisplayBackend) throws {
        let snapshot = try b.start(input: BackendInput(self))
        connectionError = nil
        replaceScreens(with: snapshot)
    }

    /// The main screen (the first of `screens`).
    public var mainScreen: Screen {
        // `screens` is never empty: backends report a stand-in screen when no monitor is active.
        screens.first ?? Screen(.standIn(size: Size(width: 1, height: 1)), application: self)
    }

    /// The screen with this name, if connected.
    public func screen(named name: String) -> Screen? {
        screens.first { $0.name == name }
    }

    /// The next responder after the application: none.
    public override var next: Responder? { nil }
}

/// Lifecycle callbacks (UIApplicationDelegate); every method has an empty default.
@MainActor
public protocol ApplicationDelegate: AnyObject {
    /// The application has launched: create the main window here.
    func applicationDidFinishLaunching(_ application: Application)
    /// The application became active: it is in the foreground and one of its windows has the focus.
    func applicationDidBecomeActive(_ application: Application)
    /// The application is about to stop being active (focus leaves its windows, or it goes to the background).
    func applicationWillResignActive(_ application: Application)
    /// The application is about to come back from the background.
    func applicationWillEnterForeground(_ application: Application)
    /// The application went to the background; windows stay "visible" to the model.
    func applicationDidEnterBackground(_ application: Application)
    /// The application is about to end.
    func applicationWillTerminate(_ application: Application)
}

extension ApplicationDelegate {
    /// Does nothing.
    public func applicationDidFinishLaunching(_ application: Application) {}
    /// Does nothing.
    public func applicationDidBecomeActive(_ application: Application) {}
    /// Does nothing.
    public func applicationWillResignActive(_ application: Application) {}
    /// Does nothing.
    public func applicationWillEnterForeground(_ application: Application) {}
    /// Does nothing.
    public func applicationDidEnterBackground(_ application: Application) {}
    /// Does nothing.
    public func applicationWillTerminate(_ application: Application) {}
}

extension Application {
    /// Posted when the application becomes active (after the delegate's `applicationDidBecomeActive`).
    nonisolated public static let didBecomeActiveNotification = Notification.Name("MultiheadApplicationDidBecomeActiveNotification")
    /// Posted when the application is about to stop being active.
    nonisolated public static let willResignActiveNotification = Notification.Name("MultiheadApplicationWillResignActiveNotification")
    /// Posted when the application went to the background.
    nonisolated public static let didEnterBackgroundNotification = Notification.Name("MultiheadApplicationDidEnterBackgroundNotification")
    /// Posted when the application is about to come back from the background.
    nonisolated public static let willEnterForegroundNotification = Notification.Name("MultiheadApplicationWillEnterForegroundNotification")

    /// Where an application is in its lifecycle (UIApplication.State, plus `suspended`).
    public enum State: String, Sendable {
        /// In the foreground, receiving events.
        case active
        /// In the foreground, not receiving events (launching, or interrupted).
        case inactive
        /// In the background, still running.
        case background
        /// In the background, not running: screen notifications are queued until it resumes.
        case suspended
    }
}
