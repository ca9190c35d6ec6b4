import Dispatch

/// A wake-up on the main actor that a frame clock (the animator, a display link) ticks from: once at a
/// deadline, or from it on at a fixed interval.
@MainActor
package protocol FrameTimer: AnyObject {
    /// Fires at `deadline` (nanoseconds of `DispatchTime`'s uptime clock), then every `interval`
    /// nanoseconds if one is given; replaces what was scheduled before.
    func schedule(deadline: UInt64, repeating interval: UInt64?)
    /// Fires no more.
    func cancel()
}

/// Makes frame timers: what a main loop that owns the main thread offers, so that a frame costs one
/// wake-up of that thread.
@MainActor
package protocol FrameTimerScheduler: AnyObject {
    /// A timer that calls `fire` on the main actor; it fires once scheduled.
    func makeTimer(_ fire: @escaping @MainActor () -> Void) -> any FrameTimer
}

/// Where frame timers come from.
@MainActor
package enum FrameTimers {
    /// The main loop running the main thread, if one does (`MainLoop` in MultiheadX11); else frames
    /// come from dispatch timers on the main queue.
    package static var scheduler: (any FrameTimerScheduler)?

    /// A timer from the scheduler, else a dispatch timer.
    static func make(_ fire: @escaping @MainActor () -> Void) -> any FrameTimer {
        scheduler?.makeTimer(fire) ?? DispatchFrameTimer(fire)
    }

    /// Now, on the frame timers' clock (nanoseconds of uptime).
    package nonisolated static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}

/// A frame timer made of a dispatch timer on the main queue: where nothing owns the main thread
/// (`dispatchMain()`), a fire wakes libdispatch's manager thread, which wakes a worker for the main queue.
@MainActor
final class DispatchFrameTimer: FrameTimer {
    private let source: any DispatchSourceTimer

    init(_ fire: @escaping @MainActor () -> Void) {
        source = DispatchSource.makeTimerSource(queue: .main)
        source.setEventHandler { MainActor.assumeIsolated { fire() } }
    }

    private var resumed = false

    func schedule(deadline: UInt64, repeating interval: UInt64?) {
        let start = DispatchTime(uptimeNanoseconds: deadline)
        if let interval {
            // A repeating frame may come up to a millisecond late, which lets the system batch wake-ups.
            source.schedule(deadline: start, repeating: .nanoseconds(Int(interval)), leeway: .milliseconds(1))
        } else {
            source.schedule(deadline: start, leeway: .nanoseconds(0))
        }
        if !resumed {
            resumed = true
            source.resume()
        }
    }

    func cancel() {
        source.cancel()
        // libdispatch traps on releasing a source that was never resumed.
        if !resumed {
            resumed = true
            source.resume()
        }
    }
}
