import ArgumentParser
import Multihead

/// A name RandR can take: 1…255 bytes.
package func validateMonitorName(_ name: String) throws {
    // The server's own rule (`MonitorName`, which `ServerControl.validate` applies), said as a usage error
    // before anything connects.
    if let fault = MonitorName.fault(in: name) { throw ValidationError(fault) }
}

/// A geometry on the command line, "WxH+X+Y" (or "WxH" when `example` has no position): whole pixels,
/// a size above 0 and a position at 0 or more, or a usage error that quotes it.
package func pixelGeometry(_ text: String, example: String) throws -> Rect {
    guard let r = Rect(geometry: text) else {
        throw ValidationError("\"\(text.terminalEscaped)\" is not a geometry like \(example)")
    }
    guard [r.minX, r.minY, r.width, r.height].allSatisfy({ $0.rounded() == $0 }) else {
        throw ValidationError("\"\(text.terminalEscaped)\" is not in whole pixels (like \(example))")
    }
    guard r.minX >= 0, r.minY >= 0 else {
        throw ValidationError("\"\(text.terminalEscaped)\": the position must be 0 or more, not \(Int(r.minX)),\(Int(r.minY))")
    }
    return r
}
