@testable import Multihead
@testable import MultiheadX11
import Testing

/// The frame timers `MainLoop` runs, driven here by hand: which fire at a time, what comes next, and
/// what a fire that schedules or cancels timers does. (The loop itself runs the `multihead` tool, whose
/// demo waits for an animation to end: DemoAndToolsTests.)
@MainActor
@Suite("The main loop's frame timers")
struct MainLoopTimersTests {
    final class Count {
        var fires = 0
    }

    @Test("a repeating timer keeps its grid and skips the frames it missed instead of bursting")
    func missedFramesAreSkipped() {
        #expect(MainLoopTimers.nextFire(after: 1_000, interval: 100, now: 1_050) == 1_100)
        #expect(MainLoopTimers.nextFire(after: 1_000, interval: 100, now: 1_100) == 1_200)
        #expect(MainLoopTimers.nextFire(after: 1_000, interval: 100, now: 1_399) == 1_400)
        #expect(MainLoopTimers.nextFire(after: 1_000, interval: 100, now: 1_400) == 1_500)
        let timers = MainLoopTimers()
        let count = Count()
        let t = timers.makeTimer { count.fires += 1 }
        t.schedule(deadline: 1_000, repeating: 100)
        timers.fireDue(now: 999)
        #expect(count.fires == 0 && timers.nextDeadline == 1_000)
        // Three frames late: one fire, and the next on the grid after now.
        timers.fireDue(now: 1_350)
        #expect(count.fires == 1 && timers.nextDeadline == 1_400)
        t.cancel()
        timers.fireDue(now: 10_000)
        #expect(count.fires == 1 && timers.nextDeadline == nil && timers.count == 0)
    }

    @Test("a one-shot timer fires once and goes; one that schedules itself again in its fire (a display link) comes back")
    func oneShotAndReschedule() {
        let timers = MainLoopTimers()
        let once = Count(), again = Count()
        let t1 = timers.makeTimer { once.fires += 1 }
        t1.schedule(deadline: 500, repeating: nil)
        var t2: (any FrameTimer)?
        t2 = timers.makeTimer { again.fires += 1; t2?.schedule(deadline: 700 + 100 * UInt64(again.fires), repeating: nil) }
        t2?.schedule(deadline: 600, repeating: nil)
        #expect(timers.nextDeadline == 500)
        timers.fireDue(now: 650)
        #expect(once.fires == 1 && again.fires == 1)
        #expect(timers.nextDeadline == 800 && timers.count == 1)
        timers.fireDue(now: 800)
        #expect(once.fires == 1 && again.fires == 2 && timers.nextDeadline == 900)
        t2?.cancel()
        #expect(timers.nextDeadline == nil)
        // A cancelled timer cannot be scheduled again: its handler is gone.
        t2?.schedule(deadline: 1_000, repeating: nil)
        #expect(timers.nextDeadline == nil)
    }

    @Test("a fire that cancels a later timer due at the same time stops it from firing")
    func cancelInsideAFire() {
        let timers = MainLoopTimers()
        let second = Count()
        let t2 = timers.makeTimer { second.fires += 1 }
        let t1 = timers.makeTimer { t2.cancel() }
        t1.schedule(deadline: 100, repeating: 100)
        t2.schedule(deadline: 100, repeating: 100)
        timers.fireDue(now: 100)
        #expect(second.fires == 0 && timers.count == 1 && timers.nextDeadline == 200)
    }
}
