import Foundation

/// A window (UIWindow): the top of a view hierarchy, on one screen, at one level; hidden when made.
///
/// On X11 every visible window is one override-redirect X window at its screen's origin plus its frame.
/// The application does not keep windows alive: release the last reference and the window goes.
@MainActor
open class Window: View {
    /// The application the window belongs to (its screen's).
    public let application: Application
    // The window owns these; the application learns of changes through `windowDid…` and `restack`.
    private var screenStorage: Screen
    private var levelStorage: WindowLevel = .normal
    private var rootViewControllerStorage: ViewController?
    /// The scale the window's views were last told of (`traitCollectionDidChange`) and drawn at.
    private(set) var traitScale: Double

    /// Makes a hidden window on `Screen.main` with a frame in that screen's coordinates.
    public override convenience init(frame: Rect) {
        self.init(frame: frame, screen: Screen.main)
    }

    /// Makes a hidden window on a screen (a connected screen of any application).
    public init(frame: Rect, screen: Screen) {
        let app = screen.application ?? Application.shared
        application = app
        screenStorage = screen.isConnected ? screen : app.mainScreen
        traitScale = screenStorage.scale
        super.init(frame: frame)
        hiddenStorage = true
        app.register(self)
    }

    isolated deinit {
        application.unregister(ObjectIdentifier(self))
    }

    /// The screen the window is shown on. Set it before showing the window: moving a visible window to
    /// another screen works but is the expensive path. A disconnected screen is refused (logged).
    public var screen: Screen {
        get { screenStorage }
        set {
            guard newValue !== screenStorage else { return }
            guard newValue.isConnected, newValue.application === application else {
                Application.logger.warning("refused to move a window to screen \(newValue.name): it is not connected")
                return
            }
            screenStorage = newValue
            application.cancelInput(in: self)
            setNeedsDisplay()
            application.stackingDidChange()
            traitsMayHaveChanged()
        }
    }

    /// The window's level; higher is in front. `.normal` (0) by default.
    public var windowLevel: WindowLevel {
        get { levelStorage }
        set {
            guard newValue != levelStorage else { return }
            levelStorage = newValue
            application.restack(self, bringToFront: false)
        }
    }

    /// Sets the level from a raw number; non-finite values are refused (logged, the old level stays).
    public func setWindowLevel(_ raw: Double) {
        guard FiniteInput.accepts(raw.isFinite, "window level \(raw)"), let level = WindowLevel(raw) else { return }
        windowLevel = level
    }

    /// Whether the window is hidden; a new window is. Showing it puts it in front of its level without
    /// making it key.
    open override var isHidden: Bool {
        get { hiddenStorage }
        set {
            guard newValue != hiddenStorage else { return }
            if newValue { hide() } else { show() }
        }
    }

    /// Shows the window in front of its level (or brings a visible one to the front of it): the root view
    /// controller's `viewWillAppear` before, `viewDidAppear` after.
    func show() {
        let wasHidden = hiddenStorage
        let change = {
            self.hiddenStorage = false
            self.application.restack(self, bringToFront: true)
            self.setNeedsDisplay()
            if wasHidden { self.application.windowDidBecomeVisible(self) }
        }
        if wasHidden, let vc = rootViewControllerStorage { vc.transitionAppearance(visible: true, change) } else { change() }
    }

    /// Hides the window: the root view controller disappears around it, then a key window resigns.
    func hide() {
        guard !hiddenStorage else { return }
        let change = {
            self.hiddenStorage = true
            self.application.windowDidHide(self)
        }
        if let vc = rootViewControllerStorage { vc.transitionAppearance(visible: false, change) } else { change() }
        application.windowDidFinishHiding(self)
    }

    /// Whether this is the application's key window.
    public var isKeyWindow: Bool { application.keyWindow === self }

    /// Makes this the key window: the old key window's `resignKey()` and `didResignKeyNotification`, then
    /// this window's `becomeKey()` and `didBecomeKeyNotification`. Nothing happens when `canBecomeKey` is
    /// false.
    public func makeKey() { application.makeKey(self) }

    /// Whether this window may be the key window (UIWindow.canBecomeKey); the default is true. A window
    /// that answers false is never made key, not even by the rule that picks the next key window.
    open var canBecomeKey: Bool { true }

    /// Called when this window becomes the key window, before `didBecomeKeyNotification` is posted.
    open func becomeKey() {}

    /// Called when this window stops being the key window, before `didResignKeyNotification` is posted.
    open func resignKey() {}

    /// Shows the window in front of its level and makes it key.
    public func makeKeyAndVisible() {
        show()
        application.makeKey(self)
    }

    /// The responder that gets key events; `nil` means the window itself.
    public internal(set) weak var firstResponder: Responder?

    /// Installs a view controller's view as the window's content, sized to the window's bounds and kept
    /// so; replacing it removes the old view.
    /// On a visible window, the old controller disappears and the new one appears.
    public var rootViewController: ViewController? {
        get { rootViewControllerStorage }
        set {
            let old = rootViewControllerStorage
            guard old !== newValue else { return }
            let visible = !hiddenStorage
            if let old {
                old.transitionAppearance(visible: false) {
                    if old.isViewLoaded, old.view.superview === self { old.view.removeFromSuperview() }
                }
            }
            rootViewControllerStorage = newValue
            if let vc = newValue {
                // Loaded before it appears, as in UIKit.
                let v = vc.view
                let install = {
                    v.frame = self.bounds
                    self.addSubview(v)
                }
                if visible { vc.transitionAppearance(visible: true, install) } else { install() }
            }
        }
    }

    override func boundsSizeDidChange() {
        if let vc = rootViewController, vc.isViewLoaded, vc.view.superview === self { vc.view.frame = bounds }
    }

    /// What must be drawn again at the next flush, in the window's drawing coordinates (points); nil:
    /// nothing.
    private(set) var damage: Rect?

    /// Whether the application's list of windows changed since the last flush holds this one: the mark
    /// that keeps it there once, set and cleared only by that list's owner (`windowNeedsFlush`, `flush`).
    var isListedForFlush = false

    /// Adds a rectangle to what must be drawn again, and asks for a flush.
    func addDamage(_ r: Rect) {
        if let clipped = r.intersection(Rect(origin: .zero, size: frameStorage.size)), !clipped.isEmpty {
            if let d = damage { damage = d.union(clipped) } else { damage = clipped }
        }
        needsDisplay = true
        application.windowNeedsFlush(self)
    }

    /// The damage, taken by a flush that draws it.
    func takeDamage() -> Rect? {
        defer { damage = nil }
        return damage
    }

    /// The next responder: the application.
    open override var next: Responder? { application }

    /// After a screen's disconnect was posted: hide the window if still visible, and move it to the main
    /// screen.
    func moveToMainAfterDisconnect() {
        application.cancelInput(in: self)
        if !isHidden { hide() }
        screenStorage = application.mainScreen
        traitsMayHaveChanged()
    }

    /// After the window's screen, or its screen's scale, changed: when the scale is not the one its views
    /// know, they are drawn again at the new one (same size in points) and told, once each.
    func traitsMayHaveChanged() {
        let now = screenStorage.scale
        guard now != traitScale else { return }
        let previous = TraitCollection(displayScale: traitScale)
        traitScale = now
        setNeedsDisplay()
        tellTraitsChanged(from: previous)
    }

    /// The window's rectangle in desktop coordinates.
    public var frameOnDesktop: Rect {
        let s = screenStorage.scale, o = screenStorage.frame.origin
        return Rect(x: o.x + frameStorage.minX * s, y: o.y + frameStorage.minY * s,
                    width: frameStorage.width * s, height: frameStorage.height * s)
    }
}

extension Window {
    /// Posted when a window is shown by the program (not when the app comes back from the background).
    nonisolated public static let didBecomeVisibleNotification = Notification.Name("MultiheadWindowDidBecomeVisibleNotification")
    /// Posted when a window is hidden by the program (not when the app goes to the background).
    nonisolated public static let didBecomeHiddenNotification = Notification.Name("MultiheadWindowDidBecomeHiddenNotification")
    /// Posted when a window becomes the key window.
    nonisolated public static let didBecomeKeyNotification = Notification.Name("MultiheadWindowDidBecomeKeyNotification")
    /// Posted when a window stops being the key window.
    nonisolated public static let didResignKeyNotification = Notification.Name("MultiheadWindowDidResignKeyNotification")
}
