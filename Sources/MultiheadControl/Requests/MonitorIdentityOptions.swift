import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead

/// `plug`'s options for a monitor that says who it is: an EDID made from its values, or one read from a
/// file. Any of them makes `plug` publish an EDID on the output before lighting it.
package struct MonitorIdentityOptions: DeclaredFields {
    package var manufacturer: String?
    package var model: String?
    package var serialNumber: String?
    package var physicalSize: String?
    package var edid: ControlPath?
    package var productCode: Int?
    package var binarySerial: Int?

    package init() {}

    package static let declaration = RequestDeclaration<MonitorIdentityOptions>([
        .option(\.manufacturer, "manufacturer", help: "The monitor's manufacturer, a three-letter PNP id such as DEL (makes an EDID)."),
        .option(\.model, "model", help: "The monitor's name, such as \"DELL U2720Q\", up to 13 characters (makes an EDID)."),
        .option(\.serialNumber, "serialNumber", help: "The monitor's serial number, up to 13 characters (makes an EDID)."),
        .option(\.physicalSize, "physicalSize", help: "The monitor's size, WxHmm such as 597x336mm (makes an EDID)."),
        .option(\.edid, "edid", help: "A file holding the monitor's whole EDID (binary), published as it is."),
        .option(\.productCode, "productCode", help: "The monitor's product code, 0 to 65535 (EDID bytes 10-11; makes an EDID)."),
        .option(\.binarySerial, "binarySerial", help: "The monitor's binary serial number, 0 to 4294967295 (EDID bytes 12-15; makes an EDID)."),
    ])

    /// Whether `--physical-size` is the only option given: on a virtual monitor, its millimetres.
    package var givesOnlySize: Bool {
        physicalSize != nil && edid == nil && [manufacturer, model, serialNumber].allSatisfy { $0 == nil } && productCode == nil && binarySerial == nil
    }

    /// Whether any option asks for an EDID.
    package var wantsEDID: Bool {
        edid != nil || [manufacturer, model, serialNumber, physicalSize].contains { $0 != nil } || productCode != nil || binarySerial != nil
    }

    /// The values checked: each a mistake with its reason (exit 64).
    package func validate() throws {
        if edid != nil, [manufacturer, model, serialNumber, physicalSize].contains(where: { $0 != nil }) || productCode != nil || binarySerial != nil {
            throw ValidationError("--edid gives the whole EDID: drop --manufacturer, --model, --serial-number, --physical-size, --product-code and --binary-serial")
        }
        if let code = productCode, !(0...0xFFFF).contains(code) {
            throw ValidationError("--product-code is 0 to 65535, not \(code)")
        }
        if let serial = binarySerial, !(0...0xFFFF_FFFF).contains(serial) {
            throw ValidationError("--binary-serial is 0 to 4294967295, not \(serial)")
        }
        if let m = manufacturer, !(m.utf8.count == 3 && m.utf8.allSatisfy { (65...90).contains($0) }) {
            throw ValidationError("--manufacturer is a PNP id of three capital letters, such as DEL, not \"\(m.terminalEscaped)\"")
        }
        for (flag, text) in [("--model", model), ("--serial-number", serialNumber)] {
            guard let text else { continue }
            guard (1...13).contains(text.utf8.count), text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                throw ValidationError("\(flag) takes 1 to 13 printable ASCII characters, not \"\(text.terminalEscaped)\"")
            }
        }
        _ = try size()
    }

    /// `--physical-size` in millimetres.
    package func size() throws -> Size? {
        guard let text = physicalSize else { return nil }
        let body = text.hasSuffix("mm") ? String(text.dropLast(2)) : text
        let parts = body.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...4095).contains(w), (1...4095).contains(h) else {
            throw ValidationError("--physical-size is WxHmm with whole millimetres from 1 to 4095, such as 597x336mm, not \"\(text.terminalEscaped)\"")
        }
        return Size(width: Double(w), height: Double(h))
    }

    /// An EDID file's bytes, read only when it is a regular file of at most twice the longest EDID: a FIFO
    /// would block the reader, a large file would hold memory and every other client of the socket.
    /// `open`, `fstat`, `read`.
    package static func readEDID(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            throw UsageError(message: "cannot read the EDID file \(path.terminalEscaped): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            throw UsageError(message: "the EDID file \(path.terminalEscaped) is not a regular file")
        }
        // Up to twice the longest EDID is read, so that a file whose byte 126 claims too many blocks is
        // refused with the EDID check's own words; anything longer is not read at all.
        let readLimit = 2 * EDID.maximumLength
        guard st.st_size <= readLimit else {
            throw UsageError(message: "the EDID file \(path.terminalEscaped) has \(st.st_size) bytes; an EDID has at most \(EDID.maximumLength) (128 blocks of 128 bytes)")
        }
        // One byte more than the limit: a file that grew since fstat is still refused, not cut short.
        var bytes = [UInt8](repeating: 0, count: readLimit + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + count }, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                throw UsageError(message: "cannot read the EDID file \(path.terminalEscaped): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            count += n
        }
        guard count <= readLimit else {
            throw UsageError(message: "the EDID file \(path.terminalEscaped) has more than \(readLimit) bytes; an EDID has at most \(EDID.maximumLength) (128 blocks of 128 bytes)")
        }
        return Array(bytes[..<count])
    }
}
