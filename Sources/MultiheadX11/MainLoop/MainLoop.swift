internal import CXlib
import Foundation
import Multihead

/// The main thread's loop: it runs the main queue's work (the main actor's) and the frame clocks'
/// timers in one wait, as a C program's `poll` loop does. Call `run()` in place of `dispatchMain()`.
///
/// With `dispatchMain()` the main queue is drained by libdispatch's worker threads, and each frame of an
/// animation or display link wakes two threads (the manager thread for the timer, then a worker); here
/// it wakes the main thread once. Without this loop everything works the same, at that cost.
public enum MainLoop {
    /// Runs the main queue and the frame clocks on the calling thread, which must be the process's main
    /// thread, until the process exits. A program starts its work in a `Task` first:
    /// `Task { @MainActor in exit(await runApp()) }; MainLoop.run()`.
    ///
    /// `_dispatch_get_main_queue_handle_4CF`, `ppoll`, `_dispatch_main_queue_callback_4CF`
    public static func run() -> Never {
        precondition(Thread.isMainThread, "MainLoop.run() must be called on the main thread")
        // Checked once, not at every turn: each check asked the concurrency runtime for the executor,
        // and a closure context was allocated for it.
        MainActor.assumeIsolated { loop() }
    }

    @MainActor
    private static func loop() -> Never {
        let timers = MainLoopTimers()
        FrameTimers.scheduler = timers
        // Made here, on first use: work queued before it poked nothing, so the first turn drains anyway.
        let handle = _dispatch_get_main_queue_handle_4CF()
        var poked = true
        while true {
            if poked { _dispatch_main_queue_callback_4CF(nil) }
            timers.fireDue(now: FrameTimers.now())
            poked = wait(on: handle, until: timers.nextDeadline)
        }
    }

    /// Waits until the main queue's handle is poked (true; the poke is consumed) or the deadline passes.
    private static func wait(on handle: Int32, until deadline: UInt64?) -> Bool {
        var fd = pollfd(fd: handle, events: Int16(POLLIN), revents: 0)
        let ready: Int32
        if let deadline {
            // A deadline already passed still looks at the handle: queued work is never starved.
            let now = FrameTimers.now()
            let left = deadline > now ? deadline - now : 0
            var timeout = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
            ready = ppoll(&fd, 1, &timeout, nil)
        } else {
            ready = ppoll(&fd, 1, nil, nil)
        }
        guard ready > 0 else { return false }
        // An eventfd: reading resets it, so the next wait sleeps until the next poke.
        var count: UInt64 = 0
        _ = read(handle, &count, MemoryLayout<UInt64>.size)
        return true
    }
}
