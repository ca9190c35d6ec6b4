internal import CXlib
import Foundation

/// The X resource database (what `xrdb` sets on the root window) as far as Multihead reads it: `Xft.dpi`,
/// which desktops set to say how many pixels a point is.
@MainActor
package enum XResources {
    /// Pixels per point from a resource database's text: `Xft.dpi` / 96 (96 → 1, 144 → 1.5, 192 → 2); 1
    /// when it is absent or not a positive number.
    package nonisolated static func scale(fromResources text: String) -> Double {
        for line in text.split(whereSeparator: { $0 == "\n" }) {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "Xft.dpi",
                  let dpi = Double(parts[1].trimmingCharacters(in: .whitespaces)), dpi.isFinite, dpi > 0 else { continue }
            return dpi / 96
        }
        return 1
    }

    /// The root window's `RESOURCE_MANAGER` text, empty when unset. `XGetWindowProperty`.
    static func text(_ c: XConnection) -> String {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = c.bounded {
            XGetWindowProperty(c.display, Window(c.root), Atom(XA_RESOURCE_MANAGER), 0, 1 << 20, 0, Atom(XA_STRING),
                               &type, &format, &count, &after, &data)
        }
        defer { if let data { XFree(data) } }
        guard status == Success, format == 8, let data, count > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(count)), as: UTF8.self)
    }
}
