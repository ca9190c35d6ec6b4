import Dispatch

/// The one owner of when the connection's events are read and handled. One state says who reads them
/// now (`Reader`); the read source, the frame clock, a waiting command, a flush that read, and the loss of
/// the connection all go through it, and it calls the backend's drain (`processPendingEvents`) when a
/// read is due. What reading means (which events change the monitors) stays the backend's.
@MainActor
final class EventPump {
    /// Who reads the connection's events now.
    enum Reader: Equatable {
        /// The read source wakes the main queue whenever the server sends.
        case source
        /// A frame clock runs: each frame reads the events once, and the source rests, so that a frame's
        /// completion event wakes no thread (with the source, each woke libdispatch's manager thread twice
        /// and the main queue once).
        case frames
        /// A command waits on the calling thread (`waitForEvents`): the source rests for good, so that an
        /// event wakes one thread instead of two.
        case caller
        /// The connection is gone or the backend stopped: nothing reads it.
        case ended
    }

    /// Who reads now.
    private(set) var reader: Reader = .source
    /// Times the read source woke for the connection: while frames are clocked, none.
    private(set) var sourceWakeups = 0
    /// Main-queue turns asked for to handle what a flush read, or what the last frame left queued: one
    /// for any number asked before it runs.
    private(set) var turnsScheduled = 0
    /// Whether such a turn is on its way.
    private(set) var turnPending = false
    private let drain: @MainActor () -> Void
    private var watch: ConnectionWatch?

    /// Starts watching `connection` with its read source; `drain` handles what is queued.
    init(_ connection: XConnection, drain: @escaping @MainActor () -> Void) {
        self.drain = drain
        // Weak: a handler already queued on the main queue may run after the pump's last reference went
        // (cancelling the source cannot take back a turn that was scheduled).
        watch = ConnectionWatch(connection) { [weak self] in
            guard let self, self.reader == .source else { return }
            self.sourceWakeups += 1
            self.drain()
        }
    }

    /// Whether events are read once a frame (one read of the socket a frame, not until it is empty).
    var readsPerFrame: Bool { reader == .frames }

    /// Whether nothing reads the connection any more.
    var hasEnded: Bool { reader == .ended }

    /// A command reads on its own thread from now on.
    func callerWaits() {
        guard reader != .ended else { return }
        reader = .caller
        watch?.setResting(true)
    }

    /// A frame clock started or stopped. Once it stops the source watches again, and what the last frame
    /// read and left queued is handled in the next turn (the socket may be empty, so the source would not
    /// fire for it).
    func frameClockChanged(isRunning: Bool) {
        switch (reader, isRunning) {
        case (.source, true):
            reader = .frames
            watch?.setResting(true)
        case (.frames, false):
            reader = .source
            watch?.setResting(false)
            scheduleTurn()
        case (.caller, false):
            scheduleTurn()
        default: break
        }
    }

    /// A flush wrote and read (`XFlush` reads after it writes): what it took off the socket, `queued`, is
    /// handled in the next turn, as the source would have (it will not fire for it). Frames drawn back to
    /// back before that turn runs need no turn each: it handles all that is queued. While a frame clock
    /// runs, its next frame handles them: a turn would cost each frame a second pass of the main loop (the
    /// main queue's wake-up, the run loop's bookkeeping, an empty read of the socket: 8 system calls),
    /// and once the clock stops `frameClockChanged` asks for the turn.
    func flushed(leavingQueued queued: Bool) {
        if queued, reader != .frames { scheduleTurn() }
    }

    /// The connection was lost: nothing reads it from now on.
    func end() {
        reader = .ended
        // Kept: the close waits for the source's cancellation (`end(closing:)`).
        watch?.cancel()
    }

    /// Stops for good and closes `connection` once the read source has let go of its descriptor.
    func end(closing connection: XConnection?) {
        reader = .ended
        if let watch {
            watch.cancel(closing: connection)
        } else {
            connection?.close()
        }
        watch = nil
    }

    private func scheduleTurn() {
        guard !turnPending, reader != .ended else { return }
        turnPending = true
        turnsScheduled += 1
        // Strong: a weak reference gives the pump a side table LeakSanitizer cannot see is referenced;
        // an ended pump drains nothing.
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                self.turnPending = false
                if self.reader != .ended { self.drain() }
            }
        }
    }
}
