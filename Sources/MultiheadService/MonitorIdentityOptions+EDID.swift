import Multihead
import MultiheadControl
import MultiheadServerControl

// The EDID a plug publishes, made by `ServerControl.MonitorIdentity`: the options' checks are the
// protocol's, making the bytes is the server side's.
extension MonitorIdentityOptions {
    /// The EDID to publish for a monitor of this size whose preferred mode has that rate (nil: 60 Hz), or
    /// nil when no option asks for one.
    package func edidBytes(preferred size: Size, refreshRate: Double? = nil, connector: String? = nil) throws -> [UInt8]? {
        guard wantsEDID else { return nil }
        if let path = edid?.path {
            let bytes = try Self.readEDID(path)
            if let fault = EDID.fault(in: bytes) {
                throw UsageError(message: "\(path.terminalEscaped) holds no EDID a monitor sends: \(fault)")
            }
            return bytes
        }
        let identity = ServerControl.MonitorIdentity(manufacturer: manufacturer ?? "MHD", model: model ?? "Multihead",
                                                     serialNumber: serialNumber, physicalSize: try self.size(),
                                                     productCode: UInt16(productCode ?? 0), binarySerial: UInt32(binarySerial ?? 0))
        return try identity.edid(preferred: size, refreshRate: refreshRate, connector: connector)
    }
}
