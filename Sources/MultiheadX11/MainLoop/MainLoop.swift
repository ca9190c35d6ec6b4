import Foundation
import Multihead

/// The main thread's loop: Foundation's main run loop, which runs the main queue's work (the main
/// actor's) and the frame clocks' timers in one wait. Call `run()` in place of `dispatchMain()`.
///
/// With `dispatchMain()` the main queue is drained by libdispatch's worker threads, and each frame of an
/// animation or display link wakes two threads (the manager thread for the timer, then a worker); here
/// a frame's run-loop timer wakes the main thread once. Without this loop everything works the same, at
/// that cost. Public API only: `RunLoop.main` drains the main queue itself.
public enum MainLoop {
    /// Runs the main queue and the frame clocks on the calling thread, which must be the process's main
    /// thread, until the process exits. A program starts its work in a `Task` first:
    /// `Task { @MainActor in exit(await runApp()) }; MainLoop.run()`.
    ///
    /// `RunLoop.run()`
    public static func run() -> Never {
        precondition(Thread.isMainThread, "MainLoop.run() must be called on the main thread")
        // The timers' waker, which never goes, keeps the run loop waiting when nothing else is scheduled.
        MainActor.assumeIsolated {
            let timers = MainLoopTimers()
            timers.attach(to: .main)
            FrameTimers.scheduler = timers
        }
        while true { RunLoop.main.run() }
    }
}
