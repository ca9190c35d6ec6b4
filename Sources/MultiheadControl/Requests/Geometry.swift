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
        // "-100x100+0+0": a size that looks negative, which the command line once took for an option.
        if text.hasPrefix("-") { throw ValidationError("\"\(text.terminalEscaped)\" is not a geometry: a size or a position cannot be negative") }
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

/// `plug`'s geometry, `WxH+X+Y`: read and checked once, where the request is made (whole pixels, a size
/// above 0, a position at 0 or more); the socket carries it as that string.
package struct PixelGeometry: RequestFieldValue {
    /// The frame, in whole pixels.
    package var frame: Rect

    /// A frame already checked.
    package init(_ frame: Rect) { self.frame = frame }

    package static var fieldType: ControlFieldType { .string }

    package init(word: String, for option: String) throws(UsageError) {
        do {
            frame = try pixelGeometry(word, example: "1280x720+1920+0")
        } catch {
            throw UsageError(message: (error as? ValidationError)?.message ?? "\(error)")
        }
    }

    /// `WxH+X+Y`.
    package var text: String { "\(Int(frame.width))x\(Int(frame.height))+\(Int(frame.minX))+\(Int(frame.minY))" }

    package var json: JSONText { .string(text) }
}

/// `mode`'s size, `WxH`: whole pixels, above 0, at most 32767 a side; the socket carries it as that string.
package struct PixelSize: RequestFieldValue {
    /// The size, in whole pixels.
    package var size: Size

    /// A size already checked.
    package init(_ size: Size) { self.size = size }

    package static var fieldType: ControlFieldType { .string }

    package init(word: String, for option: String) throws(UsageError) {
        let r: Rect
        do {
            r = try pixelGeometry(word, example: "1280x720")
        } catch {
            throw UsageError(message: (error as? ValidationError)?.message ?? "\(error)")
        }
        guard r.origin == .zero, r.width <= 32767, r.height <= 32767 else {
            throw UsageError(message: "\"\(word.terminalEscaped)\" is not a size like 1280x720, at most 32767x32767")
        }
        size = r.size
    }

    /// `WxH`.
    package var text: String { "\(Int(size.width))x\(Int(size.height))" }

    package var json: JSONText { .string(text) }
}
