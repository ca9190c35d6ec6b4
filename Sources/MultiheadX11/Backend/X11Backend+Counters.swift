import Multihead

/// What tests and benchmarks read of the frame path: the presenter's and the connection's counters.
extension X11Backend {
    /// The System V shared memory segments the backend's windows use now.
    package var sharedSegmentIDs: [Int32] { presenter?.sharedSegmentIDs ?? [] }

    /// How many windows the last presentation drew again.
    package var lastRedrawCount: Int { presenter?.counters.lastRedrawCount ?? 0 }

    /// How many pixels the last presentation sent.
    package var lastPushedPixels: Int { presenter?.counters.lastPushedPixels ?? 0 }

    /// How many pixels every presentation so far sent, Expose repairs included.
    package var totalPushedPixels: Int { presenter?.counters.totalPushedPixels ?? 0 }

    /// How many windows the last scene listed.
    package var lastSceneCount: Int { presenter?.counters.lastSceneCount ?? 0 }

    /// How many presentations sent pixels.
    package var framesPushed: Int { presenter?.counters.framesPushed ?? 0 }

    /// The barriers (`XSync`) made over the backend's connection so far: a frame makes none.
    package var syncCount: Int { connection?.syncCount ?? 0 }

    /// Times a frame waited for the server to finish reading a window's shared pixels before drawing.
    package var readWaits: Int { presenter?.readWaits ?? 0 }

    /// How many windows' buffers the next `waitForReads` visits: those put since the last one.
    package var buffersAwaitingRead: Int { presenter?.buffersAwaitingRead ?? 0 }

    /// Draws into pixels the server was still reading: 0, or the frame path is broken.
    package var drawsOverUnreadPixels: Int { presenter?.counters.drawsOverUnreadPixels ?? 0 }
}
