import Multihead
import MultiheadX11

extension Application {
    /// A barrier for tests: waits until the X server has answered everything this application sent,
    /// handles every event that arrived before that answer, pushes the window changes its handlers made,
    /// and waits until the server has drawn them. After a kit call such as `plug` returned, the application
    /// has seen all of its consequences and the server shows them: no waiting on time.
    public func synchronize() throws {
        guard let x11 = backend as? X11Backend else {
            backend.processPendingEvents()
            flush()
            return
        }
        try x11.sync()
        flush()
        try x11.sync()
        flush()
    }
}
