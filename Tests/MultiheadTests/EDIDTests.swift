import Foundation
@testable import Multihead
import Testing

/// A monitor's EDID as the kit reads it: a pure parser, tried on blocks built here byte by byte.
@Suite("EDID: who made the monitor, its name, serial number and size")
struct EDIDTests {
    /// A base block as a DELL U2720Q-like monitor sends one: 1920×1080 preferred timing, 597×336 mm.
    static func block(manufacturer: (UInt8, UInt8) = (0x10, 0xAC), numericSerial: UInt32 = 0, name: String? = "DELL U2720Q",
                      serial: String? = "ABC123", timingSize: (Int, Int) = (597, 336), cm: (UInt8, UInt8) = (60, 34)) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: 128)
        b[0..<8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
        b[8] = manufacturer.0
        b[9] = manufacturer.1
        b[10] = 0xC4
        b[11] = 0xA0
        for i in 0..<4 { b[12 + i] = UInt8(truncatingIfNeeded: numericSerial >> (8 * i)) }
        b[16] = 1
        b[17] = 30
        b[18] = 1
        b[19] = 4
        b[20] = 0xA5
        b[21] = cm.0
        b[22] = cm.1
        // Detailed timing: 148.5 MHz, 1920 + 280 by 1080 + 45, the image size in mm.
        let dtd: [UInt8] = [0x02, 0x3A, 0x80, 0x18, 0x71, 0x38, 0x2D, 0x40, 0x58, 0x2C, 0x45, 0x00,
                            UInt8(timingSize.0 & 0xFF), UInt8(timingSize.1 & 0xFF),
                            UInt8((timingSize.0 >> 8) << 4 | (timingSize.1 >> 8)), 0, 0, 0x1E]
        b[54..<72] = dtd[0...]
        func text(_ tag: UInt8, _ s: String?, at start: Int) {
            b[start + 3] = s == nil ? 0x10 : tag
            guard let s else { return }
            var field = Array(s.utf8.prefix(13))
            if field.count < 13 { field.append(0x0A) }
            while field.count < 13 { field.append(0x20) }
            b[(start + 5)..<(start + 18)] = field[0...]
        }
        text(0xFC, name, at: 72)
        text(0xFF, serial, at: 90)
        text(0x10, nil, at: 108)
        b[127] = UInt8((256 - b[0..<127].reduce(0) { ($0 + Int($1)) & 0xFF }) & 0xFF)
        return b
    }

    @Test("manufacturer, product code, name, serial number and the timing's size")
    func parses() throws {
        let e = try #require(EDID(Self.block()))
        #expect(e.manufacturer == "DEL" && e.productCode == 0xA0C4)
        #expect(e.model == "DELL U2720Q" && e.serialNumber == "ABC123")
        #expect(e.physicalSize == Size(width: 597, height: 336))
    }

    @Test("no serial descriptor: the numeric serial; none at all: nil; no timing size: the size in centimetres")
    func fallbacks() throws {
        let numeric = try #require(EDID(Self.block(numericSerial: 305_419_896, name: nil, serial: nil, timingSize: (0, 0))))
        #expect(numeric.serialNumber == "305419896" && numeric.model == nil)
        #expect(numeric.physicalSize == Size(width: 600, height: 340))
        let bare = try #require(EDID(Self.block(name: nil, serial: nil, timingSize: (0, 0), cm: (0, 0))))
        #expect(bare.serialNumber == nil && bare.physicalSize == nil)
    }

    @Test("a name of 13 characters has no line feed; trailing spaces and what follows a control byte go")
    func text() throws {
        #expect(try #require(EDID(Self.block(name: "ABCDEFGHIJKLM"))).model == "ABCDEFGHIJKLM")
        #expect(EDID.text([0x41, 0x42, 0x20, 0x20, 0x0A, 0x43][...]) == "AB")
        #expect(EDID.text([0x41, 0x07, 0x42][...]) == "A")
        #expect(EDID.text([0x20, 0x20][...]) == nil)
    }

    @Test("not an EDID: too short, a wrong header, a wrong checksum, a manufacturer id outside A…Z")
    func refuses() {
        let good = Self.block()
        #expect(EDID(Array(good.prefix(127))) == nil)
        var header = good
        header[0] = 1
        header[127] &-= 1
        #expect(EDID(header) == nil)
        var sum = good
        sum[127] &+= 1
        #expect(EDID(sum) == nil)
        #expect(EDID(Self.block(manufacturer: (0, 0))) == nil)
        #expect(EDID(good + [UInt8](repeating: 0, count: 128)) != nil)
    }

    @Test("a block the kit makes reads back as it was made; values it cannot encode give nil")
    func makesBlocks() throws {
        let bytes = try #require(EDID.block(manufacturer: "SAM", productCode: 0x7177, model: "Cable 1", serialNumber: "H4ZR900123",
                                            physicalSize: Size(width: 708, height: 398), timing: .hd1080p60))
        let e = try #require(EDID(bytes))
        #expect(e == EDID(manufacturer: "SAM", productCode: 0x7177, model: "Cable 1", serialNumber: "H4ZR900123",
                          physicalSize: Size(width: 708, height: 398)))
        #expect(bytes[54] == 0x02 && bytes[55] == 0x3A && bytes[56] == 0x80)
        #expect(EDID.block(manufacturer: "sam", model: "X", serialNumber: nil, physicalSize: .zero, timing: .hd1080p60) == nil)
        #expect(EDID.block(manufacturer: "SAM", model: "", serialNumber: nil, physicalSize: .zero, timing: .hd1080p60) == nil)
        #expect(EDID.block(manufacturer: "SAM", model: "fourteen chars", serialNumber: nil, physicalSize: .zero, timing: .hd1080p60) == nil)
        #expect(EDID.block(manufacturer: "SAM", model: "X", serialNumber: nil, physicalSize: Size(width: .nan, height: 1),
                           timing: .hd1080p60) == nil)
    }

    @Test("edid-decode --check passes the blocks the kit makes (sizes, names, serials, timings)",
          arguments: [("DEL", "DELL U2720Q", "ABC123", Size(width: 597, height: 336)), ("SAM", "SAMSUNG", nil, Size(width: 1210, height: 680)),
                      ("GSM", "LG TV", "1", Size.zero)])
    func edidDecodeChecks(manufacturer: String, model: String, serial: String?, size: Size) throws {
        let tool = try #require(["/usr/bin/edid-decode", "/usr/local/bin/edid-decode"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                "edid-decode is missing (Debian package edid-decode; Scripts/setup installs it)")
        let bytes = try #require(EDID.block(manufacturer: manufacturer, model: model, serialNumber: serial, physicalSize: size, timing: .hd1080p60))
        let file = NSTemporaryDirectory() + "edid-\(UUID().uuidString).bin"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = ["--check", file]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(text)")
    }
}
