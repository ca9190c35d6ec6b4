import Foundation
@testable import Multihead
import Testing

@MainActor
@Suite("Windows: screens, levels, stacking, visibility")
struct WindowTests {
    @Test func newWindowIsHiddenOnTheMainScreen() throws {
        let w = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(w.isHidden)
        #expect(w.screen === Screen.main)
        let (app, _) = try makeApp()
        let w2 = Window(frame: .zero, screen: app.mainScreen)
        #expect(w2.isHidden && w2.screen === app.mainScreen && w2.application === app)
    }

    @Test func settingScreenMovesAVisibleWindowAndRefusesADisconnectedOne() throws {
        let (app, backend) = try makeApp()
        let ext = try #require(app.screen(named: "EXT"))
        let w = NamedWindow("w", frame: Rect(x: 10, y: 20, width: 100, height: 50), screen: app.mainScreen)
        w.isHidden = false
        app.flush()
        #expect(backend.shown.map(\.frame) == [Rect(x: 10, y: 20, width: 100, height: 50)])
        w.screen = ext
        app.flush()
        #expect(backend.shown.map(\.screenName) == ["EXT"])
        #expect(backend.shown.map(\.frame) == [Rect(x: 1930, y: 20, width: 100, height: 50)])
        backend.disconnect("EXT")
        let other = NamedWindow("o", frame: .zero, screen: app.mainScreen)
        other.screen = ext
        #expect(other.screen === app.mainScreen)
    }

    @Test func levelsAreFiniteDoubles() throws {
        #expect(WindowLevel.normal.rawValue == 0 && WindowLevel.statusBar.rawValue == 1000 && WindowLevel.alert.rawValue == 2000)
        #expect(WindowLevel(.nan) == nil && WindowLevel(.infinity) == nil)
        // RawRepresentable, as UIWindow.Level.
        #expect(WindowLevel(rawValue: 1000) == .statusBar && WindowLevel(rawValue: .nan) == nil)
        #expect((WindowLevel.normal + 1).rawValue == 1)
        let (app, _) = try makeApp()
        let w = Window(frame: .zero, screen: app.mainScreen)
        w.setWindowLevel(1500.5)
        #expect(w.windowLevel.rawValue == 1500.5)
        w.setWindowLevel(.nan)
        #expect(w.windowLevel.rawValue == 1500.5)
        w.setWindowLevel(-.infinity)
        #expect(w.windowLevel.rawValue == 1500.5)
    }

    /// The seed's three coloured windows: the one made visible last is in front.
    @Test func seedThreeWindowsMakeKeyAndVisibleInReverse() throws {
        let (app, _) = try makeApp()
        let main = NamedWindow("main", frame: app.mainScreen.bounds, screen: app.mainScreen)
        main.makeKeyAndVisible()
        let red = NamedWindow("red", frame: Rect(x: 20, y: 70, width: 200, height: 200), screen: app.mainScreen)
        let blue = NamedWindow("blue", frame: Rect(x: 100, y: 100, width: 200, height: 200), screen: app.mainScreen)
        let yellow = NamedWindow("yellow", frame: Rect(x: 80, y: 200, width: 200, height: 200), screen: app.mainScreen)
        yellow.makeKeyAndVisible()
        blue.makeKeyAndVisible()
        red.makeKeyAndVisible()
        #expect(app.windows.map { ($0 as? NamedWindow)?.name } == ["main", "yellow", "blue", "red"])
        #expect(app.keyWindow === red)
        #expect(app.window(at: Point(x: 150, y: 150)) === red)
    }

    @Test func seedThreeWindowsIsHiddenFalseInOrder() throws {
        let (app, _) = try makeApp()
        let main = NamedWindow("main", frame: app.mainScreen.bounds, screen: app.mainScreen)
        main.makeKeyAndVisible()
        let ws = ["red", "blue", "yellow"].map { NamedWindow($0, frame: Rect(x: 20, y: 70, width: 200, height: 200), screen: app.mainScreen) }
        for w in ws { w.isHidden = false }
        #expect(app.windows.map { ($0 as? NamedWindow)?.name } == ["main", "red", "blue", "yellow"])
        // isHidden = false shows without making key.
        #expect(app.keyWindow === main)
    }

    @Test func higherLevelIsInFrontWhateverTheShowOrder() throws {
        let (app, backend) = try makeApp()
        let alert = NamedWindow("alert", frame: .zero, screen: app.mainScreen)
        alert.windowLevel = .alert
        let status = NamedWindow("status", frame: .zero, screen: app.mainScreen)
        status.windowLevel = .statusBar
        let normal = NamedWindow("normal", frame: .zero, screen: app.mainScreen)
        alert.isHidden = false
        status.isHidden = false
        normal.isHidden = false
        #expect(app.windows.map { ($0 as? NamedWindow)?.name } == ["normal", "status", "alert"])
        normal.windowLevel = WindowLevel(2500) ?? .alert
        #expect(app.windows.map { ($0 as? NamedWindow)?.name } == ["status", "alert", "normal"])
        app.flush()
        #expect(backend.shown.map(\.id) == [status, alert, normal].map(ObjectIdentifier.init))
    }

    @Test func makeKeyResignsTheOldThenKeysTheNew() throws {
        let (app, _) = try makeApp()
        let log = NotificationLog(app, label: label)
        let a = NamedWindow("a", frame: .zero, screen: app.mainScreen)
        let b = NamedWindow("b", frame: .zero, screen: app.mainScreen)
        a.makeKeyAndVisible()
        b.isHidden = false
        b.makeKey()
        #expect(log.entries == ["visible a", "key a", "visible b", "resign a", "key b"])
        #expect(b.isKeyWindow && !a.isKeyWindow && app.keyWindow === b)
        b.makeKey()
        #expect(log.entries.count == 5)
    }

    @Test func hidingTheKeyWindowKeysTheFrontmostNormalWindowOnTheMainScreen() throws {
        let (app, _) = try makeApp()
        let ext = try #require(app.screen(named: "EXT"))
        let back = NamedWindow("back", frame: .zero, screen: app.mainScreen)
        let front = NamedWindow("front", frame: .zero, screen: app.mainScreen)
        let alert = NamedWindow("alert", frame: .zero, screen: app.mainScreen)
        alert.windowLevel = .alert
        let onExt = NamedWindow("ext", frame: .zero, screen: ext)
        back.isHidden = false
        front.isHidden = false
        alert.isHidden = false
        onExt.makeKeyAndVisible()
        let log = NotificationLog(app, label: label)
        onExt.isHidden = true
        #expect(log.entries == ["hidden ext", "resign ext", "key front"])
        log.clear()
        front.isHidden = true
        #expect(log.entries == ["hidden front", "resign front", "key back"])
        log.clear()
        back.isHidden = true
        #expect(log.entries == ["hidden back", "resign back"])
        #expect(app.keyWindow == nil)
    }

    @Test func visibilityNotificationsOncePerRealChangeNeverOnBackground() throws {
        let (app, _) = try makeApp()
        let log = NotificationLog(app, label: label)
        let w = NamedWindow("w", frame: .zero, screen: app.mainScreen)
        w.isHidden = false
        w.isHidden = false
        app.launch()
        app.transition(to: .background)
        app.transition(to: .suspended)
        app.transition(to: .active)
        #expect(!w.isHidden)
        w.isHidden = true
        w.isHidden = true
        #expect(log.entries == ["visible w", "hidden w"])
    }

    @Test func rootViewControllerInstallsItsViewSizedToTheWindow() throws {
        final class VC: ViewController {
            var loads = 0
            override func viewDidLoad() { loads += 1 }
        }
        let (app, _) = try makeApp()
        let w = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300), screen: app.mainScreen)
        let vc = VC()
        #expect(!vc.isViewLoaded)
        w.rootViewController = vc
        #expect(vc.loads == 1 && vc.isViewLoaded)
        #expect(vc.view.superview === w && vc.view.frame == Rect(x: 0, y: 0, width: 400, height: 300))
        #expect(vc.view.window === w)
        w.frame = Rect(x: 10, y: 10, width: 800, height: 600)
        #expect(vc.view.frame == Rect(x: 0, y: 0, width: 800, height: 600))
        _ = vc.view
        #expect(vc.loads == 1)
        let vc2 = VC()
        w.rootViewController = vc2
        #expect(vc.view.superview == nil && vc2.view.superview === w)
        #expect(w.subviews.count == 1)
        #expect(vc2.view.next === vc2 && vc2.next === w && w.next === app)
    }

    @Test func aDisconnectedScreensWindowIsHiddenAfterTheHandlersAndMovesToMain() throws {
        let (app, backend) = try makeApp()
        let ext = try #require(app.screen(named: "EXT"))
        let w = NamedWindow("w", frame: .zero, screen: ext)
        w.isHidden = false
        let log = NotificationLog(app, label: label)
        var screenSeenByHandler: Screen?
        log.onEntry = { kind, _ in if kind == "disconnect" { screenSeenByHandler = w.screen } }
        backend.disconnect("EXT")
        #expect(screenSeenByHandler === ext)
        #expect(log.entries == ["disconnect EXT", "hidden w"])
        #expect(w.isHidden && w.screen === app.mainScreen)
    }

    @Test func aHandlerThatHidesAndReleasesTheWindowLeavesNothingBehind() throws {
        let (app, backend) = try makeApp()
        var second: NamedWindow? = NamedWindow("second", frame: .zero, screen: try #require(app.screen(named: "EXT")))
        second?.isHidden = false
        weak let weakSecond = second
        let log = NotificationLog(app, label: label)
        log.onEntry = { kind, _ in
            if kind == "disconnect" {
                second?.isHidden = true
                second = nil
            }
        }
        backend.disconnect("EXT")
        #expect(weakSecond == nil)
        #expect(log.entries == ["disconnect EXT", "hidden second"])
        #expect(app.windows.isEmpty)
        app.flush()
        #expect(backend.shown.isEmpty)
    }

    @Test func nonFiniteAndNegativeGeometry() throws {
        let (app, _) = try makeApp()
        let w = Window(frame: Rect(x: 1, y: 2, width: 3, height: 4), screen: app.mainScreen)
        w.frame = Rect(x: .nan, y: 0, width: 10, height: 10)
        #expect(w.frame == Rect(x: 1, y: 2, width: 3, height: 4))
        w.frame = Rect(x: 0, y: 0, width: .infinity, height: 10)
        #expect(w.frame == Rect(x: 1, y: 2, width: 3, height: 4))
        w.center = Point(x: .nan, y: 1)
        #expect(w.frame == Rect(x: 1, y: 2, width: 3, height: 4))
        w.frame = Rect(x: 100, y: 100, width: -50, height: -20)
        #expect(w.frame == Rect(x: 50, y: 80, width: 50, height: 20))
        let v = View(frame: Rect(x: .nan, y: .nan, width: 1, height: 1))
        #expect(v.frame == .zero)
        v.alpha = .nan
        #expect(v.alpha == 1)
        v.alpha = 7
        #expect(v.alpha == 1)
        v.alpha = -1
        #expect(v.alpha == 0)
    }

    @Test func windowNotificationsAlsoArriveAsAnAsyncSequence() async throws {
        let (app, _) = try makeApp()
        let events = app.windowEvents()
        let a = NamedWindow("a", frame: .zero, screen: app.mainScreen)
        let b = NamedWindow("b", frame: .zero, screen: app.mainScreen)
        a.makeKeyAndVisible()
        b.makeKeyAndVisible()
        a.isHidden = true
        var seen: [String] = []
        for await e in events {
            switch e {
            case .becameVisible(let w): seen.append("visible \(label(w))")
            case .becameHidden(let w): seen.append("hidden \(label(w))")
            case .becameKey(let w): seen.append("key \(label(w))")
            case .resignedKey(let w): seen.append("resign \(label(w))")
            }
            if seen.count == 6 { break }
        }
        #expect(seen == ["visible a", "key a", "visible b", "resign a", "key b", "hidden a"])
    }
}

/// A window that records its key hooks into the same log as the notifications, and may refuse to be key.
@MainActor
final class HookedWindow: Window {
    let name: String
    let refusesKey: Bool
    weak var log: NotificationLog?
    var hooks: [String] = []

    init(_ name: String, screen: Screen, refusesKey: Bool = false) {
        self.name = name
        self.refusesKey = refusesKey
        super.init(frame: Rect(x: 0, y: 0, width: 100, height: 100), screen: screen)
    }

    override var canBecomeKey: Bool { !refusesKey }
    override func becomeKey() { hooks.append("becomeKey \(name) after \(log?.entries.count ?? -1) entries") }
    override func resignKey() { hooks.append("resignKey \(name) after \(log?.entries.count ?? -1) entries") }
}

@MainActor
@Suite("Key window hooks")
struct KeyWindowHookTests {
    @Test("becomeKey and resignKey run before their notifications, the old window first; canBecomeKey false is never key")
    func hooks() throws {
        let (app, _) = try makeApp()
        let log = NotificationLog(app) { ($0 as? HookedWindow)?.name ?? label($0) }
        let a = HookedWindow("A", screen: app.mainScreen), b = HookedWindow("B", screen: app.mainScreen)
        let panel = HookedWindow("P", screen: app.mainScreen, refusesKey: true)
        for w in [a, b, panel] { w.log = log }
        a.makeKeyAndVisible()
        #expect(a.hooks == ["becomeKey A after 1 entries"])          // after "visible A", before "key A"
        b.makeKeyAndVisible()
        #expect(a.hooks.last == "resignKey A after 3 entries")       // before "resign A"
        #expect(b.hooks == ["becomeKey B after 4 entries"])          // after "resign A", before "key B"
        #expect(log.entries == ["visible A", "key A", "visible B", "resign A", "key B"])
        log.clear()
        // A window that cannot become key: makeKey changes nothing and posts nothing.
        panel.makeKeyAndVisible()
        #expect(log.entries == ["visible P"] && app.keyWindow === b && panel.hooks.isEmpty)
        // Hiding the key window skips it when picking the next one (P is frontmost, but refuses).
        b.isHidden = true
        #expect(app.keyWindow === a)
        #expect(b.hooks.last?.hasPrefix("resignKey B") == true && panel.hooks.isEmpty)
    }
}
