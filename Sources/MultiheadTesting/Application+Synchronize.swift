import Multihead
import MultiheadX11

extension Application {
    /// A barrier for tests: waits until the X server has answered everything this application sent, handles
    /// every event that arrived before that answer, and pushes pending window changes. After a kit call such
    /// as `plug` returned, the application has seen all of its consequences: no waiting on time.
    public func synchronize() throws {
        if let x11 = backend as? X11Backend { try x11.sync() } else { backend.processPendingEvents() }
        flush()
    }
}
