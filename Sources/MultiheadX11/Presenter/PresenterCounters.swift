/// What tests and benchmarks read of the presenter's frames (`X11Backend+Counters`): plain counts, kept
/// apart from the state the frames work with.
struct PresenterCounters {
    /// Draws into a buffer the server had not finished reading (must stay 0; tests check it).
    var drawsOverUnreadPixels = 0
    /// How many windows were drawn again in the last presentation.
    var lastRedrawCount = 0
    /// How many pixels the last presentation sent (damage, not windows).
    var lastPushedPixels = 0
    /// How many pixels every presentation so far sent (Expose repairs included).
    var totalPushedPixels = 0
    /// How many windows the last scene listed (a partial scene: only those that changed).
    var lastSceneCount = 0
    /// How many presentations sent pixels (benchmarks count frames with it).
    var framesPushed = 0

    /// A presentation ended, having drawn `redrawn` windows and sent `pushed` pixels.
    mutating func frameEnded(redrawn: Int, pushed: Int) {
        lastRedrawCount = redrawn
        lastPushedPixels = pushed
        totalPushedPixels += pushed
        if pushed > 0 { framesPushed += 1 }
    }
}
