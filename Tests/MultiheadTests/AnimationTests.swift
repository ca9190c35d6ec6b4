@testable import Multihead
import MultiheadInMemory
import Testing

@MainActor
@Suite("Animations, UIKit's model: final values at once, drawn values over time", .serialized)
struct AnimationTests {
    /// Runs `body` with the animator on a clock the test moves, then puts the real clock back.
    func withClock(_ body: (inout Double) throws -> Void) rethrows {
        var t = 1000.0
        let saved = Animator.shared.now
        defer { Animator.shared.now = saved }
        try withUnsafeMutablePointer(to: &t) { p in
            Animator.shared.now = { p.pointee }
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
        withClock { now in
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
            Animator.shared.tick()
            #expect(finished.isEmpty)
            now += 0.6
            Animator.shared.tick()
            #expect(finished == [true])
            #expect(v.presentationAlpha == 0 && v.presentationFrame.minX == 200)
        }
        withExtendedLifetime(w) {}
    }

    @Test("a view released while it animates: the next frame ends its animation with false, and the clock stops")
    func releasedWhileAnimating() throws {
        var finished: [Bool] = []
        withClock { now in
            var v: View? = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            View.animate(withDuration: 10, delay: 0, options: .curveLinear, animations: { v?.alpha = 0 },
                         completion: { finished.append($0) })
            #expect(Animator.shared.isAnimating)
            // The animator keeps no reference that holds the view (nor a dangling one: ASan runs this too).
            v = nil
            now += 0.1
            Animator.shared.tick()
            #expect(finished == [false])
            #expect(!Animator.shared.isAnimating)
        }
    }

    @Test("an application released while its view animates: the frames and the clock's end go on without it")
    func applicationReleasedWhileAnimating() throws {
        var finished: [Bool] = []
        try withClock { now in
            var app: Application? = try makeApp(extra: false).0
            weak let released = app
            let v = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            var w: Window? = app.map { Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), screen: $0.mainScreen) }
            w?.addSubview(v)
            w?.isHidden = false
            View.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { v.frame.origin.x = 200 },
                         completion: { finished.append($0) })
            // The animation's application is clocked from its start: its frames read its events.
            #expect(app?.loop.frameClocks.count == 1)
            now += 0.1
            Animator.shared.tick()
            // The window and the application go while the view moves (the animator holds neither; ASan
            // runs this too: the frames and the stopping clock must not reach the released application).
            w = nil
            app = nil
            #expect(released == nil)
            now += 0.1
            Animator.shared.tick()
            now += 1
            Animator.shared.tick()
            // The view, still alive, saw its move to the end; the clock stopped.
            #expect(finished == [true])
            #expect(!Animator.shared.isAnimating)
            withExtendedLifetime(v) {}
        }
    }

    @Test("a new animation of the property ends the old one with false and starts from what is drawn")
    func interrupted() throws {
        let (app, _) = try makeApp(extra: false)
        let w = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), screen: app.mainScreen)
        let v = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        w.addSubview(v)
        var log: [String] = []
        withClock { now in
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
        withClock { now in
            View.animate(withDuration: 1, animations: { View.performWithoutAnimation { v.alpha = 0.5 } })
            #expect(v.presentationAlpha == 0.5 && !Animator.shared.isAnimating)
            View.animate(withDuration: 1, delay: 0, options: [.curveLinear, .autoreverse, .repeat], animations: { v.alpha = 0 })
            now += 1.5
            #expect(abs(v.presentationAlpha - 0.25) < 1e-9)
            v.removeFromSuperview()
            #expect(!Animator.shared.isAnimating)
        }
        withExtendedLifetime(w) {}
    }
}
