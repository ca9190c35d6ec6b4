@testable import Multihead
import MultiheadInMemory
import Testing

/// Timers the test fires itself: how many there are and when each is due are facts to assert.
@MainActor
final class ManualTimers: FrameTimerScheduler {
    final class Timer: FrameTimer {
        let fire: @MainActor () -> Void
        /// When it is due (nanoseconds), while armed, and the interval it repeats at.
        var deadline: UInt64?
        var interval: UInt64?
        /// How many times it was armed.
        var armings = 0
        init(_ fire: @escaping @MainActor () -> Void) { self.fire = fire }
        func schedule(deadline: UInt64, repeating interval: UInt64?) {
            armings += 1
            self.deadline = deadline
            self.interval = interval
        }
        func cancel() { deadline = nil }
    }

    private(set) var made: [Timer] = []
    /// The wake-ups the test made.
    private(set) var wakeUps = 0

    func makeTimer(_ fire: @escaping @MainActor () -> Void) -> any FrameTimer {
        let t = Timer(fire)
        made.append(t)
        return t
    }

    /// The armed timers.
    var armed: [Timer] { made.filter { $0.deadline != nil } }

    /// Moves `time` to the one armed timer's deadline and fires it; false when none is armed.
    func wakeUp(_ time: inout Double) -> Bool {
        guard let t = armed.first, let d = t.deadline else { return false }
        time = Double(d) / 1e9
        wakeUps += 1
        // As a timer does: a repeating one is due again an interval later, a one-shot one no more.
        t.deadline = t.interval.map { d + $0 }
        t.fire()
        return true
    }
}

@MainActor
@Suite("One frame clock per application")
struct FrameClockModelTests {
    @Test("an animation and a display link together: one timer, one wake-up and one flush per refresh")
    func oneWakeUpPerRefresh() throws {
        let (app, backend) = try makeApp(extra: false)
        let timers = ManualTimers()
        var now = 500.0
        withUnsafeMutablePointer(to: &now) { time in
            app.frameClock.timers = timers
            app.frameClock.now = { time.pointee }
            app.frameClock.animator.now = { time.pointee }
            let w = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300), screen: app.mainScreen)
            let v = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
            w.addSubview(v)
            w.isHidden = false
            app.flush()
            var linkFrames: [Double] = []
            let link = app.mainScreen.displayLink { linkFrames.append($0.timestamp) }
            var finished: Bool?
            View.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { v.frame.origin.x = 300 },
                         completion: { finished = $0 })
            #expect(app.frameClock.isRunning)
            // Thirty refreshes: each one wake-up, the link called once, the view moved, one scene presented.
            for i in 1...30 {
                let presented = backend.presentations
                let before = v.presentationFrame.minX
                #expect(timers.wakeUp(&time.pointee))
                #expect(linkFrames.count == i)
                #expect(backend.presentations == presented + 1, "frame \(i) flushed \(backend.presentations - presented) times")
                #expect(v.presentationFrame.minX > before)
                #expect(timers.armed.count == 1)
            }
            #expect(timers.made.count == 1 && timers.wakeUps == 30)
            // It repeats by itself: steady frames arm it again at most once (when the link joined).
            #expect(timers.made[0].armings <= 2)
            // The wake-ups were a 60 Hz grid, and the link's timestamps are its boundaries.
            for (a, b) in zip(linkFrames, linkFrames.dropFirst()) { #expect(abs((b - a) * 60 - 1) < 1e-6) }
            #expect(abs(v.presentationFrame.minX - 150) < 1)
            // A link at half the rate meets the animation on every other boundary: still one wake-up each.
            // (The frame already asked for comes first, as a change of rate takes effect at the next frame.)
            link.preferredFramesPerSecond = 30
            #expect(timers.wakeUp(&time.pointee))
            let linkBefore = linkFrames.count
            for _ in 0..<10 { #expect(timers.wakeUp(&time.pointee)) }
            #expect(linkFrames.count - linkBefore == 5)
            #expect(timers.made.count == 1 && timers.wakeUps == 41)
            // The animation ends (completion true); the link alone goes on; invalidated, the clock stops.
            while finished == nil, timers.wakeUps < 200 { _ = timers.wakeUp(&time.pointee) }
            #expect(finished == true)
            #expect(app.frameClock.isRunning)
            link.invalidate()
            #expect(timers.armed.isEmpty && !app.frameClock.isRunning)
            withExtendedLifetime(w) {}
        }
    }

    @Test("a link made and not kept calls back until invalidated, as the run loop retains a CADisplayLink; then it goes")
    func linkRetainedByItsRunLoop() throws {
        let (app, _) = try makeApp(extra: false)
        let timers = ManualTimers()
        var now = 10.0
        withUnsafeMutablePointer(to: &now) { time in
            app.frameClock.timers = timers
            app.frameClock.now = { time.pointee }
            var frames = 0
            weak var made: DisplayLink?
            do {
                let link = app.mainScreen.displayLink { l in
                    frames += 1
                    if frames == 3 { l.invalidate() }
                }
                made = link
            }
            #expect(made != nil)
            for _ in 0..<3 { #expect(timers.wakeUp(&time.pointee)) }
            #expect(frames == 3)
            // Invalidated in its third callback: no timer armed, and nothing holds it any more.
            #expect(timers.armed.isEmpty && !timers.wakeUp(&time.pointee))
            #expect(made == nil)
        }
    }

    @Test("two applications animate side by side: each clock runs its own, neither sees the other's")
    func clocksAreTheApplications() throws {
        let (a, _) = try makeApp(extra: false)
        let (b, _) = try makeApp(extra: false)
        let wa = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), screen: a.mainScreen)
        let wb = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), screen: b.mainScreen)
        let va = View(frame: .zero), vb = View(frame: .zero)
        wa.addSubview(va)
        wb.addSubview(vb)
        View.animate(withDuration: 10, animations: { va.alpha = 0 })
        #expect(a.frameClock.animator.isAnimating && a.frameClock.isRunning)
        #expect(!b.frameClock.animator.isAnimating && !b.frameClock.isRunning)
        View.animate(withDuration: 10, animations: { vb.alpha = 0 })
        va.removeFromSuperview()
        #expect(!a.frameClock.animator.isAnimating && b.frameClock.animator.isAnimating)
        withExtendedLifetime((wa, wb)) {}
    }
}
