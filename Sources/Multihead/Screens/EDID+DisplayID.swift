/// DisplayID extension blocks: where a monitor describes a mode one detailed timing of the base block
/// cannot hold (4096 pixels or more a side, or a pixel clock past 655.35 MHz: 5K, 8K, 4K at 144 Hz).
extension EDID {
    /// The largest pixel clock a base block's detailed timing holds, in kHz (16 bits of 10 kHz steps).
    public static let maximumDetailedTimingClockKHz = 655_350

    /// Whether a base block's detailed timing can hold `timing`: sizes and blanking below 4096 (12 bits),
    /// sync offsets and widths within their 10 and 6 bits, a clock of at most 655.35 MHz.
    public static func fitsDetailedTiming(_ timing: Timing) -> Bool {
        timing.pixelClockKHz > 0 && timing.pixelClockKHz <= maximumDetailedTimingClockKHz && timing.width < 4096
            && timing.height < 4096 && timing.horizontalBlank < 4096 && timing.verticalBlank < 4096
            && timing.horizontalSyncOffset < 1024 && timing.horizontalSyncWidth < 1024 && timing.verticalSyncOffset < 64
            && timing.verticalSyncWidth < 64
    }

    /// A DisplayID 1.3 extension block (tag 0x70) for a standalone display, the data blocks `edid-decode
    /// --check` asks of one: its product identification (the manufacturer's PNP id, a product code, its
    /// name of 1 to 13 printable ASCII characters, made in week 1 of 2020 as the base block says), its
    /// display parameters (`physicalSize` in mm, the first timing's size as its native pixels, gamma 2.2,
    /// 8 bits a colour), a type I detailed timing data block with `timings` (the first marked preferred)
    /// and its interface (DisplayPort, 4 lanes, 8 bits a colour). Nil when a value does not fit: one to
    /// three timings (a block holds 121 bytes of section), sizes, blanking, sync offsets and widths of
    /// 1…65535, a pixel clock of 10 kHz…167.77 GHz in 10 kHz steps, a size of 0 to 6553 mm a side. Both
    /// sync polarities positive, as the base block's timing says.
    public static func displayIDBlock(manufacturer: String, productCode: UInt16 = 0, model: String, physicalSize: Size,
                                      timings: [Timing]) -> [UInt8]? {
        let letters = Array(manufacturer.utf8), name = Array(model.utf8)
        guard let native = timings.first, timings.count <= 3, letters.count == 3, letters.allSatisfy({ (65...90).contains($0) }),
              (1...13).contains(name.count), name.allSatisfy({ (0x20...0x7E).contains($0) }),
              physicalSize.width.isFinite, physicalSize.height.isFinite,
              (0...6553).contains(physicalSize.width), (0...6553).contains(physicalSize.height) else { return nil }
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        var descriptors: [UInt8] = []
        for (i, t) in timings.enumerated() {
            let fields = [t.width, t.horizontalBlank, t.horizontalSyncOffset, t.horizontalSyncWidth,
                          t.height, t.verticalBlank, t.verticalSyncOffset, t.verticalSyncWidth]
            // The offsets keep their top bit for the polarity: 15 bits.
            guard fields.allSatisfy({ (1...65535).contains($0) }), t.horizontalSyncOffset <= 32768, t.verticalSyncOffset <= 32768,
                  t.pixelClockKHz >= 10, t.pixelClockKHz % 10 == 0, t.pixelClockKHz / 10 <= 1 << 24 else { return nil }
            let clock = t.pixelClockKHz / 10 - 1
            descriptors += [UInt8(clock & 0xFF), UInt8(clock >> 8 & 0xFF), UInt8(clock >> 16 & 0xFF),
                            (i == 0 ? 0x80 : 0) | aspectCode(width: t.width, height: t.height)]
            for (n, value) in fields.enumerated() {
                // Fields 2 and 6 (the sync offsets): bit 15 is the polarity, 1 positive.
                descriptors += le16((value - 1) | (n == 2 || n == 6 ? 0x8000 : 0))
            }
        }
        // Each data block: its tag, revision 0, its payload's length, its payload.
        func dataBlock(_ tag: UInt8, _ payload: [UInt8]) -> [UInt8] { [tag, 0, UInt8(payload.count)] + payload }
        // Product identification: the PNP id as ASCII, the product code, serial 0, week 1, 2020 (years from
        // 2000), the name's length and the name.
        let product = letters + le16(Int(productCode)) + [0, 0, 0, 0, 1, 20, UInt8(name.count)] + name
        // Display parameters: the size in tenths of a mm, the native pixels, no features, gamma 2.2 (its
        // hundredths less 100), the aspect ratio the same way, 8 bits a colour natively and overall.
        let aspect = min(255, max(0, Int((Double(native.width) / Double(native.height) * 100).rounded()) - 100))
        let parameters = le16(Int((physicalSize.width * 10).rounded())) + le16(Int((physicalSize.height * 10).rounded()))
            + le16(native.width) + le16(native.height) + [0, 120, UInt8(aspect), 0x77]
        // The interface: DisplayPort (10) with 4 lanes; RGB at 8 bits a colour; nothing else said.
        let interface: [UInt8] = [0xA4, 0, 0x02, 0, 0, 0, 0, 0, 0, 0]
        let section = dataBlock(0x00, product) + dataBlock(0x01, parameters) + dataBlock(0x03, descriptors) + dataBlock(0x0F, interface)
        guard section.count <= 121 else { return nil }
        var b = [UInt8](repeating: 0, count: 128)
        // Extension tag; DisplayID 1.3; the section's length; product type 3 (a standalone display); no
        // further sections.
        b[0..<5] = [0x70, 0x13, UInt8(section.count), 0x03, 0x00][0...]
        b[5..<(5 + section.count)] = section[0...]
        // The section's checksum (bytes 1 to it add up to 0), then the block's.
        let end = 5 + section.count
        b[end] = UInt8((256 - b[1..<end].reduce(0) { ($0 + Int($1)) & 0xFF }) & 0xFF)
        b[127] = UInt8((256 - b[0..<127].reduce(0) { ($0 + Int($1)) & 0xFF }) & 0xFF)
        return b
    }

    /// DisplayID's aspect ratio code: 1:1, 5:4, 4:3, 15:9, 16:9, 16:10, 64:27, 256:135, else 8 (none).
    static func aspectCode(width: Int, height: Int) -> UInt8 {
        let ratios = [(1, 1), (5, 4), (4, 3), (15, 9), (16, 9), (16, 10), (64, 27), (256, 135)]
        return UInt8(ratios.firstIndex { width * $0.1 == height * $0.0 } ?? 8)
    }

    /// What is wrong with a DisplayID extension block (`base` its first byte in `bytes`), or nil: its
    /// section (5 header bytes, its data blocks, a checksum byte) inside the block's 127 bytes, each data
    /// block (3 header bytes and its payload) inside the section. The rule Multihead's driver holds before
    /// it reads the timings.
    static func displayIDFault(in bytes: [UInt8], block: Int) -> String? {
        let base = block * 128, length = Int(bytes[base + 2])
        guard 5 + length + 1 <= 127 else {
            return "DisplayID block \(block)'s section length (byte 2) is \(length), past the block (at most 121)"
        }
        var at = 5
        while at < 5 + length {
            guard at + 3 <= 5 + length, at + 3 + Int(bytes[base + at + 2]) <= 5 + length else {
                return "a data block of DisplayID block \(block) runs past its section"
            }
            at += 3 + Int(bytes[base + at + 2])
        }
        return nil
    }
}
