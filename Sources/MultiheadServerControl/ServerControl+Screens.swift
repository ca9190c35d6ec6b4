import Multihead
import MultiheadX11

extension ServerControl {
    /// The server's screens as a client of it sees them now, read over this connection (RandR's monitors
    /// and outputs, as `multihead screens` lists them).
    public func screens() throws -> [ScreenDescription] { try X11Backend.snapshot(over: connection) }
}
