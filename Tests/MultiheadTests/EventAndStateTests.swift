@testable import Multihead
import MultiheadInMemory
import Testing

/// A view that records the touches and presses that reach it.
@MainActor
final class Recorder: View {
    var log: [String] = []
    let name: String
    var handlesTouches = true
    var takesKeys = false
    init(_ name: String, frame: Rect) {
        self.name = name
        super.init(frame: frame)
    }
    override func touchesBegan(_ t: Set<Touch>, with e: Event) {
        guard handlesTouches else { return super.touchesBegan(t, with: e) }
        log.append("began \(t.first.map { $0.location(in: self) } ?? .zero)")
    }
    override func touchesMoved(_ t: Set<Touch>, with e: Event) { log.append("moved") }
    override func touchesEnded(_ t: Set<Touch>, with e: Event) { log.append("ended") }
    override var canBecomeFirstResponder: Bool { takesKeys }
    override func pressesBegan(_ p: Set<Press>, with e: Event) { log.append("key \(p.first?.key.name ?? "")") }
}

@MainActor
final class RecordingController: ViewController {
    var log: [String] = []
    override func touchesBegan(_ t: Set<Touch>, with e: Event) { log.append("vc began") }
}

@MainActor
final class RecordingDelegate: ApplicationDelegate {
    var log: [String] = []
    func applicationDidFinishLaunching(_ a: Application) { log.append("launch") }
    func applicationWillEnterForeground(_ a: Application) { log.append("foreground") }
    func applicationDidEnterBackground(_ a: Application) { log.append("background") }
    func applicationWillTerminate(_ a: Application) { log.append("terminate") }
}

@MainActor
@Suite("Events, the responder chain, the application's states")
struct EventAndStateTests {
    @Test func aPointerGoesToTheFrontmostWindowContainingItOnThatScreen() throws {
        let (app, backend) = try makeApp()
        let ext = try #require(app.screen(named: "EXT"))
        let back = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300), screen: app.mainScreen)
        let front = Window(frame: Rect(x: 100, y: 100, width: 300, height: 300), screen: app.mainScreen)
        let onExt = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300), screen: ext)
        let rb = Recorder("b", frame: back.bounds), rf = Recorder("f", frame: front.bounds), re = Recorder("e", frame: onExt.bounds)
        back.addSubview(rb); front.addSubview(rf); onExt.addSubview(re)
        for w in [back, front, onExt] { w.isHidden = false }
        backend.inject(.pointer(.pointerDown, at: Point(x: 150, y: 150)))
        backend.inject(.pointer(.pointerMoved, at: Point(x: 50, y: 50)))
        backend.inject(.pointer(.pointerUp, at: Point(x: 50, y: 50)))
        #expect(rf.log == ["began (50, 50)", "moved", "ended"])
        #expect(rb.log.isEmpty)
        backend.inject(.pointer(.pointerDown, at: Point(x: 1930, y: 15), pointerID: 2))
        #expect(re.log == ["began (10, 15)"])
        // A screen name restricts the search.
        backend.inject(.pointer(.pointerDown, at: Point(x: 150, y: 150), screenName: "EXT", pointerID: 3))
        #expect(rf.log.count == 3 && re.log.count == 1)
        // Lift the pointer that is still down: a touch in progress holds its window (and so the app).
        backend.inject(.pointer(.pointerUp, at: Point(x: 1930, y: 15), pointerID: 2))
    }

    @Test func theResponderChainRunsViewSuperviewControllerWindowApplication() throws {
        let (app, backend) = try makeApp()
        let w = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300), screen: app.mainScreen)
        let vc = RecordingController()
        w.rootViewController = vc
        let passing = Recorder("p", frame: Rect(x: 0, y: 0, width: 50, height: 50))
        passing.handlesTouches = false
        vc.view.addSubview(passing)
        w.isHidden = false
        backend.inject(.pointer(.pointerDown, at: Point(x: 10, y: 10)))
        #expect(vc.log == ["vc began"])
        #expect(passing.next === vc.view && vc.view.next === vc && vc.next === w && w.next === app && app.next == nil)
        backend.inject(.pointer(.pointerUp, at: Point(x: 10, y: 10)))
    }

    @Test func keysGoToTheKeyWindowsFirstResponderOrAreDropped() throws {
        let (app, backend) = try makeApp()
        let key = Key(keyCode: .keyboardQ, characters: "q", name: "q")
        backend.inject(.key(.keyDown, key))
        let w = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), screen: app.mainScreen)
        let field = Recorder("field", frame: w.bounds)
        field.takesKeys = true
        w.addSubview(field)
        let other = Window(frame: .zero, screen: app.mainScreen)
        let otherField = Recorder("other", frame: .zero)
        otherField.takesKeys = true
        other.addSubview(otherField)
        #expect(field.becomeFirstResponder() && otherField.becomeFirstResponder())
        w.makeKeyAndVisible()
        other.isHidden = false
        backend.inject(.key(.keyDown, key))
        #expect(field.log == ["key q"] && otherField.log.isEmpty)
        #expect(backend.focused == ObjectIdentifier(w))
        field.resignFirstResponder()
        backend.inject(.key(.keyDown, key))
        #expect(field.log.count == 1)
    }

    @Test func statesCallTheDelegateAsUIKitDoes() throws {
        let (app, _) = try makeApp()
        let d = RecordingDelegate()
        app.delegate = d
        #expect(app.state == .inactive)
        app.launch()
        app.launch()
        #expect(app.state == .active)
        app.transition(to: .inactive)
        app.transition(to: .background)
        app.transition(to: .suspended)
        app.transition(to: .background)
        app.transition(to: .active)
        app.terminate()
        #expect(d.log == ["launch", "background", "foreground", "terminate"])
    }

    @Test func whileSuspendedScreenNotificationsQueueAndArriveInOrderOnResume() throws {
        let (app, backend) = try makeApp(extra: false)
        let log = NotificationLog(app, label: label)
        app.launch()
        app.transition(to: .background)
        app.transition(to: .suspended)
        backend.connect(ScreenDescription(name: "EXT-1", frame: Rect(x: 1920, y: 0, width: 800, height: 600)))
        backend.change("EXT-1") { $0.frame.size = Size(width: 1024, height: 768) }
        backend.disconnect("EXT-1")
        #expect(log.entries.isEmpty)
        // The list itself is current.
        #expect(app.screens.map(\.name) == ["MAIN"])
        app.transition(to: .background)
        #expect(log.entries == ["connect EXT-1", "mode EXT-1", "disconnect EXT-1"])
    }

    @Test func theInMemoryBackendRecordsWhatWouldBeShown() throws {
        let (app, backend) = try makeApp()
        let ext = try #require(app.screen(named: "EXT"))
        let a = Window(frame: Rect(x: 1, y: 2, width: 3, height: 4), screen: app.mainScreen)
        let b = Window(frame: Rect(x: 5, y: 6, width: 7, height: 8), screen: ext)
        b.windowLevel = .statusBar
        b.isHidden = false
        a.isHidden = false
        app.flush()
        #expect(backend.shown.map(\.screenName) == ["MAIN", "EXT"])
        #expect(backend.shown.map(\.frame) == [Rect(x: 1, y: 2, width: 3, height: 4), Rect(x: 1925, y: 6, width: 7, height: 8)])
        #expect(backend.shown.map(\.level) == [.normal, .statusBar])
        a.isHidden = true
        app.flush()
        #expect(backend.shown.map(\.id) == [ObjectIdentifier(b)])
    }

    @Test func screensChangeModeAndBrightnessThroughTheModel() throws {
        let (app, backend) = try makeApp()
        let ext = try #require(app.screen(named: "EXT"))
        let log = NotificationLog(app, label: label)
        let mode = ScreenMode(width: 1280, height: 720)
        backend.change("EXT") { $0.modes = [mode, ScreenMode(width: 800, height: 600)]; $0.currentMode = mode }
        try ext.setCurrentMode(ScreenMode(width: 800, height: 600))
        #expect(ext.frame.size == Size(width: 800, height: 600))
        #expect(throws: ScreenError.self) { try ext.setCurrentMode(ScreenMode(width: 1, height: 1)) }
        backend.refuseModeChanges = "busy"
        #expect(throws: ScreenError.refused(screen: "EXT", reason: "busy")) { try ext.setCurrentMode(mode) }
        ext.brightness = 0.5
        ext.brightness = 0.5
        ext.brightness = 2
        ext.brightness = .nan
        #expect(ext.brightness == 1)
        #expect(log.entries == ["mode EXT", "mode EXT", "brightness EXT", "brightness EXT"])
        #expect(ext.maximumFramesPerSecond == 60)
    }

    @Test func screensIsNeverEmptyAndMirrorsAreFound() throws {
        let (app, backend) = try makeApp()
        backend.connect(ScreenDescription(name: "MIRROR", frame: Rect(x: 0, y: 0, width: 1920, height: 1080)))
        #expect(app.screen(named: "MIRROR")?.mirrored === app.mainScreen)
        #expect(app.mainScreen.mirrored == nil)
        for n in ["MAIN", "EXT", "MIRROR"] { backend.disconnect(n) }
        #expect(app.screens.map(\.name) == [ScreenDescription.standInName])
    }
}
