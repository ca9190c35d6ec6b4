import Foundation
@testable import Multihead
import MultiheadInMemory
import Testing

/// A window that lets touches through where none of its views takes them (a pass-through overlay).
@MainActor
final class PassThroughWindow: Window {
    override func hitTest(_ point: Point, with event: Event? = nil) -> View? {
        let hit = super.hitTest(point, with: event)
        return hit === self ? nil : hit
    }
}

/// A view that records its layout, hierarchy, touch and press callbacks.
@MainActor
final class LoggingView: View {
    let name: String
    let log: Log
    var onLayout: (() -> Void)?

    init(_ name: String, _ log: Log, frame: Rect = Rect(x: 0, y: 0, width: 10, height: 10)) {
        self.name = name
        self.log = log
        super.init(frame: frame)
    }

    override func layoutSubviews() {
        log.add("\(name) layout")
        onLayout?()
    }
    override func willMove(toSuperview s: View?) { log.add("\(name) willMoveToSuperview \(s == nil ? "nil" : "view")") }
    override func didMoveToSuperview() { log.add("\(name) didMoveToSuperview") }
    override func willMove(toWindow w: Window?) { log.add("\(name) willMoveToWindow \(w == nil ? "nil" : "window")") }
    override func didMoveToWindow() { log.add("\(name) didMoveToWindow") }
    override func touchesBegan(_ t: Set<Touch>, with e: Event) { log.add("\(name) began") }
    override func touchesEnded(_ t: Set<Touch>, with e: Event) { log.add("\(name) ended") }
    override func touchesCancelled(_ t: Set<Touch>, with e: Event?) {
        log.add("\(name) cancelled \(t.first.map { "\($0.phase)" } ?? "")")
    }
    override var canBecomeFirstResponder: Bool { true }
    override func pressesBegan(_ p: Set<Press>, with e: Event) { log.add("\(name) press began") }
    override func pressesEnded(_ p: Set<Press>, with e: Event) { log.add("\(name) press ended") }
    override func pressesCancelled(_ p: Set<Press>, with e: Event?) { log.add("\(name) press cancelled") }
}

/// A log shared by several objects.
@MainActor
final class Log {
    private(set) var lines: [String] = []
    func add(_ s: String) { lines.append(s) }
    func take() -> [String] {
        defer { lines = [] }
        return lines
    }
}

/// A view controller that records its loading, appearance and layout callbacks.
@MainActor
final class LoggingController: ViewController {
    let log: Log
    init(_ log: Log) {
        self.log = log
        super.init()
    }
    override func loadView() {
        log.add("loadView")
        view = LoggingView("root", log)
    }
    override func viewDidLoad() { log.add("viewDidLoad") }
    override func viewWillAppear(_ animated: Bool) { log.add("willAppear \(animated)") }
    override func viewDidAppear(_ animated: Bool) { log.add("didAppear \(animated)") }
    override func viewWillDisappear(_ animated: Bool) { log.add("willDisappear \(animated)") }
    override func viewDidDisappear(_ animated: Bool) { log.add("didDisappear \(animated)") }
    override func viewWillLayoutSubviews() { log.add("vc willLayout") }
    override func viewDidLayoutSubviews() { log.add("vc didLayout") }
}

/// Records the delegate's lifecycle calls and the application's state notifications, in one order.
@MainActor
final class LifecycleLog: ApplicationDelegate {
    let log = Log()
    private var tokens: [NSObjectProtocol] = []

    init(_ app: Application) {
        let names: [(Notification.Name, String)] = [
            (Application.didBecomeActiveNotification, "note didBecomeActive"),
            (Application.willResignActiveNotification, "note willResignActive"),
            (Application.didEnterBackgroundNotification, "note didEnterBackground"),
            (Application.willEnterForegroundNotification, "note willEnterForeground"),
        ]
        for (name, text) in names {
            let log = self.log
            tokens.append(NotificationCenter.default.addObserver(forName: name, object: app, queue: nil) { _ in
                MainActor.assumeIsolated { log.add(text) }
            })
        }
    }

    func remove() { tokens.forEach(NotificationCenter.default.removeObserver) }

    func applicationDidBecomeActive(_ a: Application) { log.add("didBecomeActive") }
    func applicationWillResignActive(_ a: Application) { log.add("willResignActive") }
    func applicationDidEnterBackground(_ a: Application) { log.add("didEnterBackground") }
    func applicationWillEnterForeground(_ a: Application) { log.add("willEnterForeground") }
}

@MainActor
@Suite("UIKit, second pass: pass-through touches, layout, hierarchy, appearance, cancellation, active state")
struct UIKitSecondPassTests {
    @Test("a touch the front window lets through goes to the window behind; none taking it drops it")
    func touchesFallThroughWindows() throws {
        let (app, backend) = try makeApp()
        let log = Log()
        let back = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), screen: app.mainScreen)
        back.addSubview(LoggingView("back", log, frame: Rect(x: 0, y: 0, width: 400, height: 400)))
        back.isHidden = false
        let overlay = PassThroughWindow(frame: Rect(x: 0, y: 0, width: 400, height: 400), screen: app.mainScreen)
        overlay.windowLevel = .alert
        overlay.addSubview(LoggingView("button", log, frame: Rect(x: 0, y: 0, width: 50, height: 50)))
        overlay.isHidden = false
        _ = log.take()

        backend.inject(.pointer(.pointerDown, at: Point(x: 10, y: 10)))
        backend.inject(.pointer(.pointerUp, at: Point(x: 10, y: 10)))
        backend.inject(.pointer(.pointerDown, at: Point(x: 200, y: 200)))
        backend.inject(.pointer(.pointerUp, at: Point(x: 200, y: 200)))
        #expect(log.take() == ["button began", "button ended", "back began", "back ended"])

        // Behind the overlay nothing takes it either: dropped.
        back.subviews.first?.isUserInteractionEnabled = false
        back.isUserInteractionEnabled = false
        backend.inject(.pointer(.pointerDown, at: Point(x: 200, y: 200)))
        backend.inject(.pointer(.pointerUp, at: Point(x: 200, y: 200)))
        #expect(log.take() == [])
    }

    @Test("Touch.location(in: nil) is in the touch's window coordinates")
    func touchLocationInNilIsWindowCoordinates() throws {
        let (app, backend) = try makeApp()
        let w = Window(frame: Rect(x: 100, y: 50, width: 300, height: 300), screen: app.mainScreen)
        final class Where: View {
            var seen: [Point] = []
            override func touchesBegan(_ t: Set<Touch>, with e: Event) { seen += t.map { $0.location(in: nil) } }
        }
        let v = Where(frame: Rect(x: 10, y: 10, width: 100, height: 100))
        w.addSubview(v)
        w.isHidden = false
        backend.inject(.pointer(.pointerDown, at: Point(x: 130, y: 70)))
        #expect(v.seen == [Point(x: 30, y: 20)])
    }

    @Test("layout: once when shown, after a resize, a subview change or setNeedsLayout; parents first; the controller around")
    func layoutRules() throws {
        let (app, _) = try makeApp()
        let log = Log()
        let w = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300), screen: app.mainScreen)
        let vc = LoggingController(log)
        w.rootViewController = vc
        let child = LoggingView("child", log)
        vc.view.addSubview(child)
        w.isHidden = false
        _ = log.take()
        app.flush()
        #expect(log.take() == ["vc willLayout", "root layout", "vc didLayout", "child layout"])
        app.flush()
        #expect(log.take() == [], "nothing needs layout: nothing is laid out")

        child.frame.size = Size(width: 20, height: 20)
        app.flush()
        #expect(log.take() == ["child layout"], "a resized view lays out; a moved one would not")
        child.frame.origin = Point(x: 5, y: 5)
        app.flush()
        #expect(log.take() == [])

        vc.view.addSubview(View(frame: .zero))
        child.setNeedsLayout()
        app.flush()
        #expect(log.take() == ["vc willLayout", "root layout", "vc didLayout", "child layout"])

        // A parent that resizes its child in layoutSubviews: the child is laid out in the same pass.
        (vc.view as? LoggingView)?.onLayout = { child.frame.size = Size(width: 30, height: 30) }
        vc.view.setNeedsLayout()
        child.setNeedsLayout()
        vc.view.layoutIfNeeded()
        #expect(log.take() == ["vc willLayout", "root layout", "vc didLayout", "child layout"])
        app.flush()
        #expect(log.take() == [], "layoutIfNeeded left nothing for the run loop")
    }

    @Test("hierarchy callbacks in UIKit's order, for the whole moved subtree")
    func hierarchyCallbacks() throws {
        let (app, _) = try makeApp()
        let log = Log()
        let w = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300), screen: app.mainScreen)
        let parent = LoggingView("parent", log)
        let child = LoggingView("child", log)
        parent.addSubview(child)
        #expect(log.take() == ["child willMoveToSuperview view", "child didMoveToSuperview"])

        w.addSubview(parent)
        #expect(log.take() == [
            "parent willMoveToSuperview view", "parent willMoveToWindow window", "child willMoveToWindow window",
            "parent didMoveToWindow", "child didMoveToWindow", "parent didMoveToSuperview",
        ])
        // A move inside the same window changes the superview only.
        let other = View(frame: .zero)
        w.addSubview(other)
        other.addSubview(parent)
        #expect(log.take() == ["parent willMoveToSuperview view", "parent didMoveToSuperview"])
        // Reordering among siblings is no move at all.
        other.addSubview(View(frame: .zero))
        other.bringSubviewToFront(parent)
        other.insertSubview(parent, belowSubview: other.subviews[0])
        #expect(log.take() == [])

        parent.removeFromSuperview()
        #expect(log.take() == [
            "parent willMoveToSuperview nil", "parent willMoveToWindow nil", "child willMoveToWindow nil",
            "parent didMoveToWindow", "child didMoveToWindow", "parent didMoveToSuperview",
        ])
        #expect(parent.window == nil && child.window == nil)
    }

    @Test("appearance: loadView and viewDidLoad once; will/did appear and disappear once per transition")
    func appearance() throws {
        let (app, _) = try makeApp()
        let log = Log()
        let w = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300), screen: app.mainScreen)
        let vc = LoggingController(log)
        w.rootViewController = vc
        #expect(log.take().filter { !$0.contains("Window") && !$0.contains("Superview") } == ["loadView", "viewDidLoad"])
        w.makeKeyAndVisible()
        #expect(log.take().filter { $0.contains("ppear") } == ["willAppear false", "didAppear false"])
        w.isHidden = false
        w.makeKeyAndVisible()
        #expect(log.take().filter { $0.contains("ppear") } == [], "already visible: no second appearance")
        w.isHidden = true
        #expect(log.take().filter { $0.contains("ppear") } == ["willDisappear false", "didDisappear false"])
        w.isHidden = true
        #expect(log.take().filter { $0.contains("ppear") } == [])

        // Installing on a visible window appears; replacing disappears the old one first.
        w.isHidden = false
        _ = log.take()
        let log2 = Log()
        let second = LoggingController(log2)
        w.rootViewController = second
        #expect(log.take().filter { $0.contains("ppear") } == ["willDisappear false", "didDisappear false"])
        #expect(log2.take().filter { $0.contains("ppear") || $0.contains("load") || $0.contains("Load") }
                == ["loadView", "viewDidLoad", "willAppear false", "didAppear false"])
        #expect(vc.view.superview == nil && second.view.superview === w)
        // On a hidden window nothing appears until it is shown.
        w.isHidden = true
        _ = log2.take()
        let log3 = Log()
        let third = LoggingController(log3)
        w.rootViewController = third
        #expect(log3.take().filter { $0.contains("ppear") } == [])
        w.isHidden = false
        #expect(log3.take().filter { $0.contains("ppear") } == ["willAppear false", "didAppear false"])
    }

    @Test("a touch in progress is cancelled, never ended, when its window hides, moves or goes, or its screen does")
    func touchesCancelled() throws {
        let (app, backend) = try makeApp()
        let log = Log()
        let view = LoggingView("v", log, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        var w: Window? = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), screen: app.mainScreen)
        w?.addSubview(view)
        w?.isHidden = false
        _ = log.take()

        backend.inject(.pointer(.pointerDown, at: Point(x: 10, y: 10)))
        w?.isHidden = true
        backend.inject(.pointer(.pointerUp, at: Point(x: 10, y: 10)))
        #expect(log.take() == ["v began", "v cancelled cancelled"])

        w?.isHidden = false
        backend.inject(.pointer(.pointerDown, at: Point(x: 10, y: 10)))
        w?.screen = try #require(app.screen(named: "EXT"))
        backend.inject(.pointer(.pointerUp, at: Point(x: 10, y: 10)))
        #expect(log.take() == ["v began", "v cancelled cancelled"])

        w?.screen = app.mainScreen
        backend.inject(.pointer(.pointerDown, at: Point(x: 10, y: 10)))
        // The touch does not keep its window alive: released, the window goes, and the touch is cancelled.
        weak let gone = w
        w = nil
        #expect(gone == nil)
        backend.inject(.pointer(.pointerUp, at: Point(x: 10, y: 10)))
        #expect(log.take() == ["v began", "v cancelled cancelled"])

        let onExt = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), screen: try #require(app.screen(named: "EXT")))
        let extView = LoggingView("ext", log, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        onExt.addSubview(extView)
        onExt.isHidden = false
        _ = log.take()
        backend.inject(.pointer(.pointerDown, at: Point(x: 1930, y: 10)))
        backend.disconnect("EXT")
        backend.inject(.pointer(.pointerUp, at: Point(x: 1930, y: 10)))
        #expect(log.take() == ["ext began", "ext cancelled cancelled"])
    }

    @Test("a key held down is cancelled when its window hides; its end goes where it began")
    func pressesCancelled() throws {
        let (app, backend) = try makeApp()
        let log = Log()
        let w = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), screen: app.mainScreen)
        let field = LoggingView("field", log)
        w.addSubview(field)
        w.makeKeyAndVisible()
        field.becomeFirstResponder()
        _ = log.take()
        let a = Key(keyCode: .keyboardA, characters: "a", name: "a")
        backend.inject(.key(.keyDown, a))
        backend.inject(.key(.keyUp, a))
        #expect(log.take() == ["field press began", "field press ended"])
        backend.inject(.key(.keyDown, a))
        w.isHidden = true
        backend.inject(.key(.keyUp, a))
        #expect(log.take() == ["field press began", "field press cancelled"])
    }

    @Test("active state: UIKit's order of delegate calls and notifications; focus moves it between active and inactive")
    func activeState() throws {
        let (app, backend) = try makeApp()
        let life = LifecycleLog(app)
        defer { life.remove() }
        app.delegate = life
        app.launch()
        #expect(life.log.take() == ["didBecomeActive", "note didBecomeActive"])
        app.transition(to: .background)
        #expect(life.log.take() == ["willResignActive", "note willResignActive", "didEnterBackground", "note didEnterBackground"])
        app.transition(to: .active)
        #expect(life.log.take() == ["willEnterForeground", "note willEnterForeground", "didBecomeActive", "note didBecomeActive"])

        backend.changeFocus(appHasFocus: false)
        #expect(app.state == .inactive)
        #expect(life.log.take() == ["willResignActive", "note willResignActive"])
        backend.changeFocus(appHasFocus: false)
        #expect(life.log.take() == [])
        backend.changeFocus(appHasFocus: true)
        #expect(app.state == .active)
        #expect(life.log.take() == ["didBecomeActive", "note didBecomeActive"])
        // In the background, focus changes nothing.
        app.transition(to: .background)
        _ = life.log.take()
        backend.changeFocus(appHasFocus: true)
        #expect(app.state == .background && life.log.take() == [])
    }

    @Test("currentMode is settable: a listed mode is applied; an unlisted or refused one is logged and changes nothing")
    func currentModeSetter() throws {
        let modes = [ScreenMode(width: 1920, height: 1080, refreshRate: 60), ScreenMode(width: 1280, height: 720, refreshRate: 60)]
        let backend = InMemoryBackend(screens: [
            ScreenDescription(name: "MAIN", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), isPrimary: true,
                              modes: modes, currentMode: modes[0]),
        ])
        let app = try Application(backend: backend)
        let log = NotificationLog(app, label: label)
        let screen = app.mainScreen
        screen.currentMode = modes[1]
        #expect(screen.currentMode == modes[1] && screen.frame.size == Size(width: 1280, height: 720))
        #expect(log.entries == ["mode MAIN"])
        screen.currentMode = ScreenMode(width: 640, height: 480, refreshRate: 60)
        screen.currentMode = nil
        backend.refuseModeChanges = "no"
        screen.currentMode = modes[0]
        #expect(screen.currentMode == modes[1] && log.entries == ["mode MAIN"])
    }

    @Test("overscan is stored and insets nothing on X")
    func overscan() throws {
        let (app, _) = try makeApp()
        let s = app.mainScreen
        #expect(s.overscanCompensation == .scale && s.overscanCompensationInsets == .zero)
        s.overscanCompensation = .none
        #expect(s.overscanCompensation == .none)
    }
}
