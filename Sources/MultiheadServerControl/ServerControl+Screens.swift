import Multihead
import MultiheadX11

extension ServerControl {
    /// The server's screens as a client of it sees them now, read over this connection (RandR's monitors
    /// and outputs, as `multihead screens` lists them), each with its scale (`ScreenScalePolicy`: the
    /// factors given by name first).
    public func screens(scaleFactors: [String: Double] = [:]) throws -> [ScreenDescription] {
        try X11Backend.snapshot(over: connection, scaleFactors: scaleFactors)
    }
}
