import Dispatch

/// The X connection's read source on the main queue: it calls back when the server sends, rests while
/// something else reads the connection (a frame clock's frames, a command that waits on its own), and
/// lets go of the descriptor before the connection is closed.
@MainActor
final class ConnectionWatch {
    private var source: (any DispatchSourceRead)?
    private var resting = false
    /// Whether the source's cancellation is done, and the connection to close then.
    private let end = SourceEnd()

    /// Watches `connection`'s descriptor; `onReadable` runs on the main actor each time it is readable.
    /// `DispatchSource.makeReadSource`.
    init(_ connection: XConnection, onReadable: @escaping @MainActor () -> Void) {
        let s = DispatchSource.makeReadSource(fileDescriptor: connection.fileDescriptor, queue: .main)
        s.setEventHandler { MainActor.assumeIsolated { onReadable() } }
        // libdispatch lets go of the descriptor only when the cancel handler runs: a connection closed
        // before that leaves its number registered, and a new connection given the same number joins the
        // stale registration and never wakes its source (seen: `run()` waiting for ever after another
        // test's lost connection was closed). Whoever cancels, the close waits for this.
        let end = self.end
        s.setCancelHandler {
            MainActor.assumeIsolated {
                end.cancelled = true
                end.closeWhenCancelled?.close()
                end.closeWhenCancelled = nil
            }
        }
        s.resume()
        source = s
    }

    /// Rests (no callback however much the server sends) or watches again. A resting source is resumed
    /// before it is cancelled (libdispatch traps on releasing a suspended source).
    func setResting(_ rest: Bool) {
        guard rest != resting, let source else { return }
        resting = rest
        if rest { source.suspend() } else { source.resume() }
    }

    /// Stops watching for good.
    func cancel() {
        setResting(false)
        source?.cancel()
        source = nil
    }

    /// Stops watching and closes `connection` once the source has let go of its descriptor (now, or in
    /// the cancel handler).
    func cancel(closing connection: XConnection?) {
        cancel()
        if end.cancelled {
            connection?.close()
        } else {
            end.closeWhenCancelled = connection
        }
    }
}

/// The end of a read source: whether its cancel handler has run, and the connection it must then close.
@MainActor
final class SourceEnd {
    var cancelled = false
    var closeWhenCancelled: XConnection?
}
