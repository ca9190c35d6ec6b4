@testable import Multihead
import MultiheadInMemory
import Testing

@MainActor
@Suite("Animations, UIKit's model: final values at once, drawn values over time", .serialized)
struct AnimationTests {
    /// Runs `body` with `app`'s animations on a clock the test moves, then puts the real clock back.
    func withClock(_ app: Application, _ body: (inout Double) throws -> Void) rethrows {
        var t = 1000.0
        let animator = app.frameClock.animator
        let saved = animator.now
        defer { animator.now = saved }
        try withUnsafeMutablePointer(to: &t) { p in
            animator.now = { p.pointee }
            try body(&p.pointee)
        }
    }

    @Test("inside the block the model takes the final value; the drawn value moves, then completion(true)")
    func finalValuesAtOnce() throws {
        let (app, _) = try makeApp(extra: false)
        let w = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), screen: app.mainScreen)
        let v = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        w.addSubview(v)
        w.isHidden = false
        var finished: [Bool] = []
        withClock(app) { now in
            View.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: {
                v.alpha = 0
                v.frame.origin.x = 200
            }, completion: { finished.append($0) })
            #expect(v.alpha == 0 && v.frame.minX == 200)
            // Hit testing uses the final values: at alpha 0 it takes no touch, even where it is drawn.
            #expect(w.hitTest(Point(x: 50, y: 50)) === w)
            now += 0.5
            #expect(abs(v.presentationAlpha - 0.5) < 1e-9)
            #expect(abs(v.presentationFrame.minX - 100) < 1e-9)
            app.frameClock.frame()
            #expect(finished.isEmpty)
            now += 0.6
            app.frameClock.frame()
            #expect(finished == [true])
            #expect(v.presentationAlpha == 0 && v.presentationFrame.minX == 200)
        }
        withExtendedLifetime(w) {}
    }

    @Test("a view released while it animates: the next frame ends its animation with false, and the clock stops")
    func releasedWhileAnimating() throws {
        // A view in no window animates in the shared application's animator.
        let app = Application.shared
        var finished: [Bool] = []
        withClock(app) { now in
            var v: View? = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            View.animate(withDuration: 10, delay: 0, options: .curveLinear, animations: { v?.alpha = 0 },
                         completion: { finished.append($0) })
            #expect(app.frameClock.animator.isAnimating)
            // The animator keeps no reference that holds the view (nor a dangling one: ASan runs this too).
            v = nil
            now += 0.1
            app.frameClock.frame()
            #expect(finished == [false])
            #expect(!app.frameClock.animator.isAnimating)
        }
    }

    @Test("an application released while its view animates: its animations end with it (false), its clock stops")
    func applicationReleasedWhileAnimating() throws {
        var finished: [Bool] = []
        var app: Application? = try makeApp(extra: false).0
        weak let released = app
        weak let clock = app?.frameClock
        let v = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        var w: Window? = app.map { Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), screen: $0.mainScreen) }
        w?.addSubview(v)
        w?.isHidden = false
        View.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { v.frame.origin.x = 200 },
                     completion: { finished.append($0) })
        // The animation's application is clocked from its start: its frames read its events.
        #expect(app?.frameClock.isRunning == true)
        app?.frameClock.frame()
        #expect(finished.isEmpty)
        // The window and the application go while the view moves (ASan runs this too: nothing may reach
        // the released application, its clock or its animator afterwards).
        w = nil
        app = nil
        #expect(released == nil && clock == nil)
        // The animation went with its application's animator: completion false, and the view, still alive,
        // is drawn where its model is.
        #expect(finished == [false])
        #expect(v.presentationFrame == v.frame && v.frame.minX == 200)
        // A new animation of the view, in no window now, runs in the shared application's animator.
        View.animate(withDuration: 0, animations: { v.alpha = 0.5 })
        #expect(v.alpha == 0.5)
    }

    @Test("a new animation of the property ends the old one with false and starts from what is drawn")
    func interrupted() throws {
        let (app, _) = try makeApp(extra: false)
        let w = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), screen: app.mainScreen)
        let v = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        w.addSubview(v)
        var log: [String] = []
        withClock(app) { now in
            View.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { v.alpha = 0 },
                         completion: { log.append("first \($0)") })
            now += 0.25
            View.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { v.alpha = 1 },
                         completion: { log.append("second \($0)") })
            #expect(log == ["first false"])
            #expect(abs(v.presentationAlpha - 0.75) < 1e-9)
            now += 0.5
            #expect(abs(v.presentationAlpha - 0.875) < 1e-9)
            // Removed from its window: ended, false.
            v.removeFromSuperview()
            #expect(log == ["first false", "second false"])
        }
        withExtendedLifetime(w) {}
    }

    @Test("ease in-out is slow at both ends; performWithoutAnimation changes at once; autoreverse returns")
    func curvesAndOptions() throws {
        let opts = AnimationOptions.curveEaseInOut
        #expect(abs(opts.eased(0)) < 1e-6 && abs(opts.eased(1) - 1) < 1e-6 && abs(opts.eased(0.5) - 0.5) < 1e-6)
        #expect(opts.eased(0.1) < 0.1 && opts.eased(0.9) > 0.9)
        #expect(AnimationOptions.curveEaseIn.eased(0.5) < 0.5 && AnimationOptions.curveEaseOut.eased(0.5) > 0.5)
        let (app, _) = try makeApp(extra: false)
        let w = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), screen: app.mainScreen)
        let v = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        w.addSubview(v)
        withClock(app) { now in
            View.animate(withDuration: 1, animations: { View.performWithoutAnimation { v.alpha = 0.5 } })
            #expect(v.presentationAlpha == 0.5 && !app.frameClock.animator.isAnimating)
            View.animate(withDuration: 1, delay: 0, options: [.curveLinear, .autoreverse, .repeat], animations: { v.alpha = 0 })
            now += 1.5
            #expect(abs(v.presentationAlpha - 0.25) < 1e-9)
            v.removeFromSuperview()
            #expect(!app.frameClock.animator.isAnimating)
        }
        withExtendedLifetime(w) {}
    }
}
