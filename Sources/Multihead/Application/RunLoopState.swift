/// What the application's run loop knows between turns.
@MainActor
struct RunLoopState {
    /// Whether `launch()` ran.
    var launched = false
    /// A `stop()` came while `run()` was not waiting: the next `run()` returns at once.
    var stopRequested = false
    /// The `run()`s waiting to end, oldest first (two tasks may wait on one application). Boxed:
    /// `CheckedContinuation`'s size is known only at run time.
    var runContinuations: [RunContinuation] = []
    /// Screen notifications held while the application is suspended, in order.
    var queuedWhileSuspended: [() -> Void] = []
    /// Whether a change waits to be pushed to the backend.
    var needsFlush = false
    /// Whether a flush at the end of this turn is scheduled.
    var flushScheduled = false
    /// Whether the next scene must list every visible window (a change not tied to one window's pixels).
    var sceneNeedsAll = true
    /// The windows whose pixels changed since the last flush, when only they did (each once: a window in
    /// it is marked `isListedForFlush`, no set is hashed at each change).
    /// Not retained: a window released before the flush is not drawn for it.
    var changedWindows: [UnretainedWindow] = []
    /// The buffer the last flush listed its changed windows in, kept empty for the next one.
    var flushBuffer: [Window] = []
    /// The buffer of the last flush's scene, kept for the next one (a frame allocates no array).
    var sceneBuffer: [PresentedWindow] = []
    /// Whether a clock's frame is being made: its end flushes (`endFrame`).
    var inClockedFrame = false
}

/// The continuation of a waiting `run()`, and which call it is (its cancellation ends only it).
final class RunContinuation {
    /// One `run()` call.
    final class ID: Sendable {}
    let id: ID
    let continuation: CheckedContinuation<Void, any Error>
    init(_ id: ID, _ continuation: CheckedContinuation<Void, any Error>) {
        self.id = id
        self.continuation = continuation
    }
}

/// The touches and presses in progress: each ends where it began, or is cancelled with its window.
@MainActor
struct InputTracking {
    /// Touches by pointer.
    var touches: [Int: Touch] = [:]
    /// Presses by key (`Key.trackingID`).
    var presses: [KeyTrackingID: TrackedPress] = [:]
}
