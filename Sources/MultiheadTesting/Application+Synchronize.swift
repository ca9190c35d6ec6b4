import Multihead

extension Application {
    /// A barrier for tests: waits until the X server has answered everything this application sent,
    /// handles every event that arrived before that answer, pushes the window changes its handlers made,
    /// and waits until the server has drawn them. After a kit call such as `plug` returned, the application
    /// has seen all of its consequences and the server shows them: no waiting on time.
    public func synchronize() throws {
        // Twice: the handlers of the events the first barrier brought may change windows, whose push the
        // second barrier waits for.
        try backend.synchronize()
        flush()
        try backend.synchronize()
        flush()
    }
}
