/// What a monitor says of itself in its EDID (VESA E-EDID 1.3/1.4, the 128-byte base block): who made
/// it, its name and serial number, its physical size. X servers publish it as an output's `EDID` property.
/// A pure parser: `EDID(bytes)` is nil for anything that is not a valid base block (wrong header, wrong
/// checksum, too short).
public struct EDID: Hashable, Sendable {
    /// The manufacturer's three-letter PNP id, such as "DEL" or "SAM".
    public var manufacturer: String
    /// The manufacturer's product code.
    public var productCode: UInt16
    /// The monitor's name (the display product name descriptor, such as "DELL U2720Q"), if it gives one.
    public var model: String?
    /// The serial number: the serial number descriptor's text, else the numeric serial when it is not 0.
    public var serialNumber: String?
    /// The serial number descriptor's text alone (nil when the EDID has none).
    public var serialText: String?
    /// The binary serial number (bytes 12–15), 0 when it gives none.
    public var binarySerial: UInt32 = 0
    /// The picture's size in millimetres: the first detailed timing's image size, else the base block's
    /// size in centimetres; nil when it says neither (a projector).
    public var physicalSize: Size?

    /// An EDID's values as given.
    public init(manufacturer: String, productCode: UInt16, model: String?, serialNumber: String?, physicalSize: Size?) {
        self.manufacturer = manufacturer
        self.productCode = productCode
        self.model = model
        self.serialNumber = serialNumber
        // A serial given as text is the descriptor's (an EDID made from these values carries it so).
        serialText = serialNumber
        self.physicalSize = physicalSize
    }

    /// The eight bytes every EDID starts with.
    static let header: [UInt8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]

    /// Parses the base block of an EDID (the first 128 bytes; extension blocks after it are ignored).
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 128, Array(bytes[0..<8]) == Self.header,
              bytes[0..<128].reduce(0, { ($0 + Int($1)) & 0xFF }) == 0 else { return nil }
        let id = UInt16(bytes[8]) << 8 | UInt16(bytes[9])
        let letters = [id >> 10 & 0x1F, id >> 5 & 0x1F, id & 0x1F]
        // 1 is "A"; anything outside 1...26 is not a PNP id.
        guard letters.allSatisfy({ (1...26).contains($0) }) else { return nil }
        manufacturer = String(letters.map { Character(Unicode.Scalar(UInt8(64 + $0))) })
        productCode = UInt16(bytes[10]) | UInt16(bytes[11]) << 8
        let number = UInt32(bytes[12]) | UInt32(bytes[13]) << 8 | UInt32(bytes[14]) << 16 | UInt32(bytes[15]) << 24
        var model: String?, serial: String?, timingSize: Size?
        for start in stride(from: 54, to: 126, by: 18) {
            let d = bytes[start..<start + 18]
            if d[start] != 0 || d[start + 1] != 0 {
                // A detailed timing: its image size, in mm (12 bits each).
                let w = Int(d[start + 12]) | Int(d[start + 14] >> 4) << 8
                let h = Int(d[start + 13]) | Int(d[start + 14] & 0x0F) << 8
                if timingSize == nil, w > 0, h > 0 { timingSize = Size(width: Double(w), height: Double(h)) }
                continue
            }
            switch d[start + 3] {
            case 0xFC: model = model ?? Self.text(d[(start + 5)...])
            case 0xFF: serial = serial ?? Self.text(d[(start + 5)...])
            default: break
            }
        }
        self.model = model
        serialText = serial
        binarySerial = number
        serialNumber = serial ?? (number != 0 ? String(number) : nil)
        let cm = (Double(bytes[21]), Double(bytes[22]))
        physicalSize = timingSize ?? (cm.0 > 0 && cm.1 > 0 ? Size(width: cm.0 * 10, height: cm.1 * 10) : nil)
    }

    /// The longest EDID there is: the base block and 127 extension blocks of 128 bytes (16 KiB), the
    /// most an X server reads (it counts extensions in a signed byte) and Multihead's driver takes.
    public static let maximumLength = 128 * 128

    /// What is wrong with a whole EDID (the base block and its extension blocks) as a monitor would send
    /// it, in words, or nil when nothing is: whole 128-byte blocks; the EDID header; version 1; at most 127
    /// extension blocks (X servers count them in a signed byte), exactly as many as byte 126 says; every
    /// block's checksum; in each CEA-861 block, a detailed timing offset (byte 2) of 0 or 4…127 and data
    /// blocks that end at or before it; in each DisplayID block, a section and data blocks inside it; at
    /// most one display range limits descriptor in all (Xorg keeps eight ranges in a fixed array). The rules of Multihead's Xorg driver, which refuses the rest, plus
    /// the checksums.
    public static func fault(in bytes: [UInt8]) -> String? {
        guard bytes.count >= 128, bytes.count % 128 == 0 else {
            return "\(bytes.count) bytes is not a whole number of 128-byte blocks"
        }
        guard Array(bytes[0..<8]) == header else { return "it does not start with the EDID header (00 FF FF FF FF FF FF 00)" }
        guard bytes[18] == 1 else { return "its version (byte 18) is \(bytes[18]), not 1" }
        let extensions = Int(bytes[126])
        guard extensions <= 127 else { return "it says it has \(extensions) extension blocks (byte 126); at most 127 can be read" }
        guard bytes.count == 128 * (1 + extensions) else {
            return "it is \(bytes.count / 128) blocks long, but byte 126 says 1 + \(extensions) extension block\(extensions == 1 ? "" : "s")"
        }
        for block in 0...extensions {
            let sum = bytes[(block * 128)..<(block * 128 + 128)].reduce(0) { ($0 + Int($1)) & 0xFF }
            guard sum == 0 else { return "block \(block)'s checksum is wrong (its bytes add up to \(sum) modulo 256, not 0)" }
        }
        /// Whether the 18 bytes at `start` are a display range limits descriptor.
        func isRange(_ start: Int) -> Bool { bytes[start] == 0 && bytes[start + 1] == 0 && bytes[start + 2] == 0 && bytes[start + 3] == 0xFD }
        var ranges = stride(from: 54, through: 108, by: 18).filter(isRange).count
        for block in 1..<(1 + extensions) where bytes[block * 128] == 0x70 {
            if let fault = displayIDFault(in: bytes, block: block) { return fault }
        }
        for block in 1..<(1 + extensions) where bytes[block * 128] == 0x02 {
            let base = block * 128, offset = Int(bytes[base + 2])
            guard offset != 0 else { continue }
            guard (4...127).contains(offset) else {
                return "CEA block \(block)'s detailed timing offset (byte 2) is \(offset), outside 4...127"
            }
            var at = 4
            while at < offset {
                at += 1 + Int(bytes[base + at] & 0x1F)
                guard at <= offset else { return "a data block of CEA block \(block) runs past its detailed timing offset \(offset)" }
            }
            ranges += stride(from: offset, through: 109, by: 18).filter { isRange(base + $0) }.count
        }
        guard ranges <= 1 else { return "it has \(ranges) display range limits descriptors; an EDID has at most one" }
        return nil
    }

    /// The bytes with each whole 128-byte block's checksum (its last byte) set so that the block adds up
    /// to 0 modulo 256: what a monitor's EDID holds after a block was edited.
    public static func checksummed(_ bytes: [UInt8]) -> [UInt8] {
        var b = bytes
        for end in stride(from: 127, to: b.count, by: 128) {
            b[end] = UInt8((256 - b[(end - 127)..<end].reduce(0) { ($0 + Int($1)) & 0xFF }) & 0xFF)
        }
        return b
    }

    /// A descriptor's text: up to 13 bytes, ended by a line feed and padded with spaces; printable ASCII
    /// only (anything else ends it). Nil when empty.
    static func text(_ field: ArraySlice<UInt8>) -> String? {
        let chars = field.prefix(13).prefix { $0 != 0x0A && (0x20...0x7E).contains($0) }
        let s = String(decoding: chars, as: UTF8.self)
        let trimmed = s.hasSuffix(" ") ? String(s.reversed().drop { $0 == " " }.reversed()) : s
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A detailed timing (an EDID's preferred mode): pixel clock in kHz (10 kHz steps), active and
    /// blanking pixels and lines, sync offsets and widths.
    public struct Timing: Hashable, Sendable {
        /// The pixel clock in kHz (EDID keeps it in 10 kHz steps: up to 655.35 MHz in a base block, past it
        /// in a DisplayID block).
        public var pixelClockKHz: Int
        /// Active pixels a line, and the blanking after them: the front porch (sync offset), the sync.
        public var width: Int, horizontalBlank: Int, horizontalSyncOffset: Int, horizontalSyncWidth: Int
        /// Active lines, and the blanking after them: the front porch (sync offset), the sync.
        public var height: Int, verticalBlank: Int, verticalSyncOffset: Int, verticalSyncWidth: Int

        /// Makes a timing from its parts.
        public init(pixelClockKHz: Int, width: Int, horizontalBlank: Int, horizontalSyncOffset: Int, horizontalSyncWidth: Int,
                    height: Int, verticalBlank: Int, verticalSyncOffset: Int, verticalSyncWidth: Int) {
            self.pixelClockKHz = pixelClockKHz
            self.width = width
            self.horizontalBlank = horizontalBlank
            self.horizontalSyncOffset = horizontalSyncOffset
            self.horizontalSyncWidth = horizontalSyncWidth
            self.height = height
            self.verticalBlank = verticalBlank
            self.verticalSyncOffset = verticalSyncOffset
            self.verticalSyncWidth = verticalSyncWidth
        }

        /// CEA-861's 1920×1080 at 60 Hz (148.5 MHz).
        public static let hd1080p60 = Timing(pixelClockKHz: 148_500, width: 1920, horizontalBlank: 280, horizontalSyncOffset: 88,
                                             horizontalSyncWidth: 44, height: 1080, verticalBlank: 45, verticalSyncOffset: 4,
                                             verticalSyncWidth: 5)
    }

    /// A further mode among an EDID's eight standard timings: a width of 256…2288 in steps of 8, a height
    /// that makes 16:10, 4:3, 5:4 or 16:9 with it, a refresh rate of 60…123 Hz.
    public struct StandardTiming: Sendable, Hashable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Refresh rate in Hz.
        public var refreshRate: Int

        /// A standard timing from its size and rate.
        public init(width: Int, height: Int, refreshRate: Int = 60) {
            self.width = width
            self.height = height
            self.refreshRate = refreshRate
        }

        /// Its two bytes (the width, the aspect ratio and the rate), or nil when an EDID cannot list it.
        public var bytes: [UInt8]? {
            guard width >= 256, width <= 2288, width % 8 == 0, (60...123).contains(refreshRate) else { return nil }
            // EDID 1.3 and later: 00 is 16:10, 01 4:3, 10 5:4, 11 16:9.
            let ratios = [(16, 10), (4, 3), (5, 4), (16, 9)]
            guard let aspect = ratios.firstIndex(where: { height * $0.0 == width * $0.1 }) else { return nil }
            return [UInt8(width / 8 - 31), UInt8(aspect) << 6 | UInt8(refreshRate - 60)]
        }
    }

    /// The digital interface an EDID 1.4 says its monitor is on (byte 20's low nibble).
    public enum Interface: UInt8, Sendable, Hashable, CaseIterable {
        case dvi = 1, hdmiA = 2, hdmiB = 3, displayPort = 5

        /// The interface a connector's name says (`HDMI-1`, `DVI-I-1`, `DP-2`, `eDP-1`), DisplayPort for
        /// any other.
        public init(connector name: String) {
            let upper = name.uppercased()
            self = upper.hasPrefix("HDMI") ? .hdmiA : upper.hasPrefix("DVI") ? .dvi : .displayPort
        }
    }

    /// An EDID 1.4 base block describing a monitor: the manufacturer's PNP id (three letters A…Z), a
    /// product code and a binary serial number, a name (which EDID 1.4 requires) and a serial number
    /// (display descriptors, 1 to 13 characters of printable ASCII each), the physical size in mm (0:
    /// unknown, a projector), its digital interface, the preferred timing and up to eight further modes
    /// (standard timings). Nil when a value cannot be encoded.
    public static func block(manufacturer: String, productCode: UInt16 = 0, binarySerial: UInt32 = 0, model: String, serialNumber: String?,
                             physicalSize: Size, interface: Interface = .displayPort, timing: Timing,
                             standardTimings: [StandardTiming] = []) -> [UInt8]? {
        let standard = standardTimings.compactMap(\.bytes)
        guard standard.count == standardTimings.count, standard.count <= 8 else { return nil }
        let letters = Array(manufacturer.utf8)
        guard letters.count == 3, letters.allSatisfy({ (65...90).contains($0) }),
              [model, serialNumber].allSatisfy({ $0.map { (1...13).contains($0.utf8.count) && $0.utf8.allSatisfy { (0x20...0x7E).contains($0) } } ?? true }),
              physicalSize.width.isFinite, physicalSize.height.isFinite, physicalSize.width >= 0, physicalSize.height >= 0,
              physicalSize.width < 4096, physicalSize.height < 4096, fitsDetailedTiming(timing)
        else { return nil }
        var b = [UInt8](repeating: 0, count: 128)
        b[0..<8] = header[0...]
        let id = letters.reduce(UInt16(0)) { $0 << 5 | UInt16($1 - 64) }
        b[8] = UInt8(id >> 8)
        b[9] = UInt8(id & 0xFF)
        b[10] = UInt8(productCode & 0xFF)
        b[11] = UInt8(productCode >> 8)
        for i in 0..<4 { b[12 + i] = UInt8((binarySerial >> (8 * UInt32(i))) & 0xFF) }
        // Made in week 1 of 2020 (year − 1990); EDID 1.4; digital input, 8 bits a colour, the interface.
        b[16] = 1
        b[17] = 30
        b[18] = 1
        b[19] = 4
        b[20] = 0xA0 | interface.rawValue
        let mm = (Int(physicalSize.width.rounded()), Int(physicalSize.height.rounded()))
        b[21] = UInt8(min(255, (mm.0 + 5) / 10))
        b[22] = UInt8(min(255, (mm.1 + 5) / 10))
        // Gamma 2.2; sRGB default with sRGB's chromaticities, preferred timing in descriptor 1.
        b[23] = 120
        b[24] = 0x06
        let xy = [0.640, 0.330, 0.300, 0.600, 0.150, 0.060, 0.3127, 0.3290].map { Int(($0 * 1024).rounded()) }
        b[25] = UInt8((xy[0] & 3) << 6 | (xy[1] & 3) << 4 | (xy[2] & 3) << 2 | xy[3] & 3)
        b[26] = UInt8((xy[4] & 3) << 6 | (xy[5] & 3) << 4 | (xy[6] & 3) << 2 | xy[7] & 3)
        for (i, v) in xy.enumerated() { b[27 + i] = UInt8(v >> 2) }
        // The standard timings given; 0x0101 marks each unused one.
        for i in stride(from: 38, to: 54, by: 2) { b[i] = 1; b[i + 1] = 1 }
        for (i, bytes) in standard.enumerated() { b[38 + 2 * i] = bytes[0]; b[39 + 2 * i] = bytes[1] }
        let t = timing, clock = t.pixelClockKHz / 10
        func low(_ v: Int) -> UInt8 { UInt8(v & 0xFF) }
        func highNibbles(_ a: Int, _ b: Int) -> UInt8 { UInt8(((a >> 8) & 0x0F) << 4 | ((b >> 8) & 0x0F)) }
        let syncLow = UInt8((t.verticalSyncOffset & 0x0F) << 4 | (t.verticalSyncWidth & 0x0F))
        let h1 = (t.horizontalSyncOffset >> 8) << 6 | (t.horizontalSyncWidth >> 8) << 4
        let syncHigh = UInt8(h1 | (t.verticalSyncOffset >> 4) << 2 | (t.verticalSyncWidth >> 4))
        let dtd: [UInt8] = [
            low(clock), UInt8(clock >> 8),
            low(t.width), low(t.horizontalBlank), highNibbles(t.width, t.horizontalBlank),
            low(t.height), low(t.verticalBlank), highNibbles(t.height, t.verticalBlank),
            low(t.horizontalSyncOffset), low(t.horizontalSyncWidth), syncLow, syncHigh,
            low(mm.0), low(mm.1), highNibbles(mm.0, mm.1), 0, 0,
            // Digital separate sync, both polarities positive.
            0x1E,
        ]
        b[54..<72] = dtd[0...]
        // Display descriptors: the name, the serial number; a dummy one where either is missing.
        func descriptor(_ tag: UInt8, _ text: String?, at start: Int) {
            guard let text else { b[start + 3] = 0x10; return }
            b[start + 3] = tag
            var field = Array(text.utf8)
            if field.count < 13 { field.append(0x0A) }
            while field.count < 13 { field.append(0x20) }
            b[(start + 5)..<(start + 18)] = field[0...]
        }
        descriptor(0xFC, model, at: 72)
        descriptor(0xFF, serialNumber, at: 90)
        descriptor(0x10, nil, at: 108)
        b[127] = UInt8((256 - b[0..<127].reduce(0) { ($0 + Int($1)) & 0xFF }) & 0xFF)
        return b
    }
}
