import Foundation
import Multihead

/// The frame timers `MainLoop` runs: each fires on the main thread between two drains of the main queue.
/// One run-loop timer wakes the loop at the earliest deadline (`attach(to:)`); without one (the tests)
/// `fireDue` is called by hand.
@MainActor
final class MainLoopTimers: FrameTimerScheduler {
    /// The scheduled timers, in the order they were scheduled.
    private var scheduled: [MainLoopTimer] = []
    /// The run-loop timer that fires at `nextDeadline`, once attached.
    private var waker: Timer?
    /// The deadline the waker is set for (nil: none, it waits for ever).
    private var armed: UInt64?

    /// Lets the main run loop wake for these timers: one run-loop timer, moved to each earliest deadline
    /// (its own interval never fires it). `RunLoop.add(_:forMode:)`
    func attach(to loop: RunLoop) {
        let t = Timer(fire: .distantFuture, interval: 86_400, repeats: true) { [weak self] _ in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.armed = nil
                self.fireDue(now: FrameTimers.now())
            }
        }
        t.tolerance = 0
        loop.add(t, forMode: .common)
        waker = t
        rearm()
    }

    /// Moves the waker to the earliest deadline, when it changed.
    private func rearm() {
        guard let waker else { return }
        let next = nextDeadline
        guard next != armed else { return }
        armed = next
        guard let next else { waker.fireDate = .distantFuture; return }
        let now = FrameTimers.now()
        waker.fireDate = Date(timeIntervalSinceNow: next > now ? Double(next - now) / 1e9 : 0)
    }

    func makeTimer(_ fire: @escaping @MainActor () -> Void) -> any FrameTimer {
        MainLoopTimer(timers: self, fire: fire)
    }

    /// The earliest deadline, if any timer is scheduled.
    var nextDeadline: UInt64? {
        // A loop, not a key path and closures: this runs at every turn of the main loop.
        var earliest: UInt64?
        for t in scheduled { if let d = t.deadline { earliest = min(d, earliest ?? d) } }
        return earliest
    }

    /// How many timers are scheduled.
    var count: Int { scheduled.count }

    /// Fires each timer due at `now` once; a timer a fire schedules or cancels takes effect at once.
    func fireDue(now: UInt64) {
        for timer in scheduled { timer.fireIfDue(now: now) }
        rearm()
    }

    /// Schedules a timer, or takes its new deadline: the waker moves when the earliest one changed.
    func add(_ timer: MainLoopTimer) {
        if !scheduled.contains(where: { $0 === timer }) { scheduled.append(timer) }
        rearm()
    }

    func remove(_ timer: MainLoopTimer) {
        scheduled.removeAll { $0 === timer }
        rearm()
    }


    /// The first fire of a repeating timer after `now`, on its grid from `deadline`: frames missed while
    /// the thread was busy are skipped, not fired in a burst (as a dispatch timer coalesces them).
    nonisolated static func nextFire(after deadline: UInt64, interval: UInt64, now: UInt64) -> UInt64 {
        let next = deadline &+ interval
        guard next <= now, interval > 0 else { return next }
        return next + ((now - next) / interval + 1) * interval
    }
}

/// One timer of `MainLoopTimers`.
@MainActor
final class MainLoopTimer: FrameTimer {
    // Unowned: the scheduler holds its scheduled timers, and lives as long as the loop (for ever).
    private unowned let timers: MainLoopTimers
    private var fire: (@MainActor () -> Void)?
    /// When it fires next; nil when it is not scheduled.
    private(set) var deadline: UInt64?
    private var interval: UInt64?

    init(timers: MainLoopTimers, fire: @escaping @MainActor () -> Void) {
        self.timers = timers
        self.fire = fire
    }

    func schedule(deadline: UInt64, repeating interval: UInt64?) {
        guard fire != nil else { return }
        self.deadline = deadline
        self.interval = interval
        timers.add(self)
    }

    func cancel() {
        deadline = nil
        // The handler often holds what holds the timer: let both go.
        fire = nil
        timers.remove(self)
    }

    func fireIfDue(now: UInt64) {
        guard let d = deadline, d <= now, let fire else { return }
        if let interval {
            deadline = MainLoopTimers.nextFire(after: d, interval: interval, now: now)
        } else {
            deadline = nil
            timers.remove(self)
        }
        fire()
    }
}
