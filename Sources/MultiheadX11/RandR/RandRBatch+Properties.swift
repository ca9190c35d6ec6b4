internal import CXlib
import Glibc
import Multihead

/// Output properties and gamma ramps, read pipelined as the rest of RandR is: what the server control's
/// fingerprint, its cables and its EDIDs read, through the one reader.
extension RandRBatch {
    /// A property's type, format and value, laid out as Xlib lays them out (a format-32 item is a C `long`,
    /// which is what `XRRChangeOutputProperty` takes back).
    package struct PropertyValue: Equatable, Sendable {
        package var type: UInt
        package var format: Int32
        package var bytes: [UInt8]

        package init(type: UInt, format: Int32, bytes: [UInt8]) {
            self.type = type
            self.format = format
            self.bytes = bytes
        }

        /// A value as XCB gives it (`count` bytes at `data`), in Xlib's layout: a format-32 item widened
        /// to a C long, sign-extended as Xlib's `_XRead32` does, as `XGetWindowProperty` hands it over and
        /// `XChangeProperty` takes it back (its low 32 bits).
        package init(type: UInt, format: Int32, xcbData data: UnsafeRawPointer?, count: Int) {
            var bytes: [UInt8] = []
            if count > 0, let data {
                let raw = UnsafeRawBufferPointer(start: data, count: count)
                bytes = format == 32
                    ? stride(from: 0, to: raw.count - 3, by: 4).flatMap { i -> [UInt8] in
                        let item = CLong(raw.loadUnaligned(fromByteOffset: i, as: Int32.self))
                        return withUnsafeBytes(of: item) { Array($0) }
                    }
                    : Array(raw)
            }
            self.init(type: type, format: format, bytes: bytes)
        }
    }

    /// The names (atoms) of each output's properties, in one round trip. `xcb_randr_list_output_properties`.
    package static func propertyNames(_ c: any ScreenSource, outputs: [UInt]) -> [UInt: [UInt]] {
        guard let x = c.xcbConnection else { return [:] }
        let cookies = outputs.map { ($0, xcb_randr_list_output_properties(x, xcb_randr_output_t(truncatingIfNeeded: $0))) }
        count(c, cookies.count)
        var result: [UInt: [UInt]] = [:]
        for (output, cookie) in cookies {
            guard let r = awaitReply({ xcb_randr_list_output_properties_reply(x, cookie, $0) }) else { continue }
            defer { free(r) }
            let n = Int(xcb_randr_list_output_properties_atoms_length(r))
            result[output] = n > 0 ? UnsafeBufferPointer(start: xcb_randr_list_output_properties_atoms(r), count: n).map { UInt($0) } : []
        }
        return result
    }

    /// Every property of each output, by atom: the names in one round trip, the values in a second.
    /// `xcb_randr_list_output_properties`, `xcb_randr_get_output_property`.
    package static func outputProperties(_ c: any ScreenSource, outputs: [UInt]) -> [UInt: [UInt: PropertyValue]] {
        guard let x = c.xcbConnection else { return [:] }
        let names = propertyNames(c, outputs: outputs)
        let cookies = names.flatMap { output, atoms in
            atoms.map { (output, $0, xcb_randr_get_output_property(x, xcb_randr_output_t(truncatingIfNeeded: output),
                                                                    xcb_atom_t(truncatingIfNeeded: $0), xcb_atom_t(0), 0, 1 << 22, 0, 0)) }
        }
        count(c, cookies.count)
        var result = names.mapValues { _ in [UInt: PropertyValue]() }
        for (output, atom, cookie) in cookies {
            guard let r = awaitReply({ xcb_randr_get_output_property_reply(x, cookie, $0) }) else { continue }
            defer { free(r) }
            let format = Int32(r.pointee.format)
            // The data's length in bytes (XCB's `_data_length` counts items × format / 8).
            result[output]?[atom] = PropertyValue(type: UInt(r.pointee.type), format: format,
                                                  xcbData: xcb_randr_get_output_property_data(r).map(UnsafeRawPointer.init),
                                                  count: Int(xcb_randr_get_output_property_data_length(r)))
        }
        return result
    }

    /// Each CRTC's gamma ramps, red then green then blue (empty where it has none), in one round trip.
    /// `xcb_randr_get_crtc_gamma`.
    package static func gammaRamps(_ c: any ScreenSource, crtcs: [UInt]) -> [UInt: [UInt16]] {
        guard let x = c.xcbConnection else { return [:] }
        let cookies = crtcs.map { ($0, xcb_randr_get_crtc_gamma(x, xcb_randr_crtc_t(truncatingIfNeeded: $0))) }
        count(c, cookies.count)
        var result: [UInt: [UInt16]] = [:]
        for (crtc, cookie) in cookies {
            guard let r = awaitReply({ xcb_randr_get_crtc_gamma_reply(x, cookie, $0) }) else { result[crtc] = []; continue }
            defer { free(r) }
            let size = Int(r.pointee.size)
            guard size > 0, let red = xcb_randr_get_crtc_gamma_red(r), let green = xcb_randr_get_crtc_gamma_green(r),
                  let blue = xcb_randr_get_crtc_gamma_blue(r) else { result[crtc] = []; continue }
            result[crtc] = Array(UnsafeBufferPointer(start: red, count: size)) + Array(UnsafeBufferPointer(start: green, count: size))
                + Array(UnsafeBufferPointer(start: blue, count: size))
        }
        return result
    }
}
