import Foundation
@testable import Multihead
import MultiheadInMemory
import Testing

/// What a user's code may do with lifetimes, as UIKit allows it: every case here read freed memory or
/// aborted while the model held unretained references (run them under `--sanitize=address`).
@MainActor
@Suite("Lifetimes: no reference outlives what it points at")
struct LifetimeTests {
    /// A window made and released on the main actor, returned as a weak reference.
    private func releasedWindow(_ app: Application, show: Bool = true) -> Window? {
        var w: Window? = Window(frame: Rect(x: 0, y: 0, width: 200, height: 100), screen: app.mainScreen)
        w?.isHidden = !show
        weak let gone = w
        w = nil
        return gone
    }

    @Test("a subview that outlives its superview finds no superview and no window, and can be drawn, moved and added again")
    func subviewOutlivesSuperview() throws {
        let (app, _) = try makeApp(extra: false)
        let sub = View(frame: Rect(x: 1, y: 2, width: 3, height: 4))
        do {
            let w = Window(frame: Rect(x: 0, y: 0, width: 50, height: 50), screen: app.mainScreen)
            let parent = View(frame: Rect(x: 0, y: 0, width: 20, height: 20))
            w.addSubview(parent)
            parent.addSubview(sub)
            w.isHidden = false
            #expect(sub.window === w)
        }
        #expect(sub.superview == nil)
        #expect(sub.window == nil)
        sub.setNeedsDisplay()
        sub.frame = Rect(x: 5, y: 5, width: 10, height: 10)
        sub.removeFromSuperview()
        let other = View(frame: .zero)
        other.addSubview(sub)
        #expect(sub.superview === other)
        app.flush()
    }

    @Test("a window released while a button in it is pressed: the press is cancelled, nothing aborts, the next flush shows nothing of it")
    func windowReleasedWhileButtonTracked() throws {
        let (app, backend) = try makeApp(extra: false)
        var cancelled = 0
        var w: Window? = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300), screen: app.mainScreen)
        let button = Button(frame: Rect(x: 50, y: 50, width: 100, height: 40))
        button.addAction(Action { _ in cancelled += 1 }, for: .touchCancel)
        w?.addSubview(button)
        w?.isHidden = false
        app.flush()
        backend.inject(.pointer(.pointerDown, at: Point(x: 60, y: 60)))
        #expect(button.isTracking)
        w = nil
        #expect(cancelled == 1)
        #expect(!button.isTracking && !button.isHighlighted)
        #expect(app.windows.isEmpty)
        app.flush()
        #expect(backend.shown.isEmpty)
        // The pointer comes up over nothing.
        backend.inject(.pointer(.pointerUp, at: Point(x: 60, y: 60)))
    }

    @Test("windows whose last reference goes on another thread: the application no longer lists them, flushes and routes clicks without them")
    func windowsReleasedOffMain() async throws {
        let (app, backend) = try makeApp(extra: false)
        for round in 0..<20 {
            var windows: [Window] = []
            for i in 0..<5 {
                let w = Window(frame: Rect(x: Double(i * 10), y: 0, width: 100, height: 100), screen: app.mainScreen)
                w.isHidden = false
                w.setNeedsDisplay()
                windows.append(w)
            }
            let held = Holder(windows)
            windows.removeAll()
            // The last references go on a thread of the pool, while the main actor goes on using the app.
            let release = Task.detached { held.drop() }
            for _ in 0..<10 {
                _ = app.windows.count
                app.flush()
                backend.inject(.pointer(.pointerDown, at: Point(x: 20, y: 20)))
                backend.inject(.pointer(.pointerUp, at: Point(x: 20, y: 20)))
                await Task.yield()
            }
            await release.value
            // Their deinits reach the main actor in later turns: once they did, nothing lists them.
            while !app.windows.isEmpty { await Task.yield() }
            app.flush()
            #expect(app.windows.isEmpty, "round \(round)")
        }
    }

    /// Windows handed to another thread to release: only that thread holds them afterwards.
    final class Holder: @unchecked Sendable {
        private var windows: [Window]?
        private let lock = NSLock()
        init(_ windows: [Window]) { self.windows = windows }
        func drop() {
            lock.lock()
            let w = windows
            windows = nil
            lock.unlock()
            _ = w?.count
        }
    }

    /// A window whose `canBecomeKey` makes, shows and releases other windows while the key window is chosen.
    final class MeddlingWindow: Window {
        var made: [Window] = []
        override var canBecomeKey: Bool {
            let w = Window(frame: Rect(x: 0, y: 0, width: 10, height: 10), screen: application.mainScreen)
            w.isHidden = false
            made.append(w)
            if made.count > 2 { made.removeFirst() }
            return true
        }
    }

    /// A view whose hit test hides and releases windows.
    final class MeddlingView: View {
        var victims: [Window] = []
        override func hitTest(_ point: Point, with event: Event?) -> View? {
            for w in victims { w.isHidden = true }
            victims.removeAll()
            return super.hitTest(point, with: event)
        }
    }

    @Test("canBecomeKey and hitTest overrides that add, hide or release windows while the application walks them")
    func overridesChangeWindowsMidIteration() throws {
        let (app, backend) = try makeApp(extra: false)
        let key = MeddlingWindow(frame: Rect(x: 0, y: 0, width: 300, height: 300), screen: app.mainScreen)
        key.makeKeyAndVisible()
        let back = MeddlingWindow(frame: Rect(x: 0, y: 0, width: 300, height: 300), screen: app.mainScreen)
        back.isHidden = false
        // Hiding the key window picks the next one: every candidate's canBecomeKey makes a window.
        key.isHidden = true
        #expect(app.keyWindow != nil && app.keyWindow !== key)
        let front = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300), screen: app.mainScreen)
        let meddler = MeddlingView(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        front.addSubview(meddler)
        front.isHidden = false
        meddler.victims = [back, key]
        backend.inject(.pointer(.pointerDown, at: Point(x: 10, y: 10)))
        backend.inject(.pointer(.pointerUp, at: Point(x: 10, y: 10)))
        #expect(back.isHidden)
        app.flush()
        withExtendedLifetime((key, back, front)) {}
    }

    @Test("a view released mid-animation: its completion gets false at the next frame, nothing is read after it went")
    func viewReleasedMidAnimation() throws {
        let (app, _) = try makeApp(extra: false)
        let w = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300), screen: app.mainScreen)
        w.isHidden = false
        var finished: [Bool] = []
        do {
            let v = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            w.addSubview(v)
            View.animate(withDuration: 10, delay: 0, options: [], animations: {
                v.frame = Rect(x: 100, y: 100, width: 10, height: 10)
                v.alpha = 0.5
            }, completion: { finished.append($0) })
            v.removeFromSuperview()
        }
        app.frameClock.frame()
        app.flush()
        #expect(finished == [false])
        #expect(!app.frameClock.animator.isAnimating)
    }

    @Test("an application released while its windows animate: the next frame draws in no freed application")
    func applicationReleasedMidAnimation() throws {
        var finished: [Bool] = []
        var view: View? = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        do {
            let (app, _) = try makeApp(extra: false)
            let w = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300), screen: app.mainScreen)
            w.isHidden = false
            if let view { w.addSubview(view) }
            View.animate(withDuration: 10, delay: 0, options: [], animations: { view?.alpha = 0.2 }, completion: { finished.append($0) })
            app.frameClock.frame()
        }
        // The application went: its animator ended the animation (false); the view is drawn as its model.
        view = nil
        #expect(finished == [false])
    }

    @Test("a screen's coordinate space kept past its disconnect converts with the screen's last frame, as UIKit's does")
    func coordinateSpaceOutlivesItsScreen() throws {
        let (app, backend) = try makeApp()
        weak var gone: Screen?
        var space: (any CoordinateSpace)?
        // Not through #require, which keeps what it evaluated for its report.
        if let ext = app.screen(named: "EXT") {
            gone = ext
            space = ext.coordinateSpace
        }
        backend.disconnect("EXT")
        #expect(app.screen(named: "EXT") == nil)
        #expect(space?.bounds == Rect(x: 0, y: 0, width: 1280, height: 720))
        #expect(space?.convert(Point(x: 10, y: 20), to: app.mainScreen.coordinateSpace) == Point(x: 1930, y: 20))
        space = nil
        #expect(gone == nil, "the space held its screen, and only it")
    }
}
