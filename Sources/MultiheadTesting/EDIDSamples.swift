import Multihead

/// EDIDs for testing what reads them: one a monitor with a CEA-861 block sends, and the malformed ones a
/// careless or hostile client could set on a cable. The suite's driver, CLI and model tests share them.
package enum EDIDSamples {
    /// A 1920×1080 monitor's base block ("DEL", "DELL U2720Q"), no extension.
    package static let base: [UInt8] = EDID.block(manufacturer: "DEL", model: "DELL U2720Q", serialNumber: "ABC123",
                                                   physicalSize: Size(width: 597, height: 336), timing: .hd1080p60) ?? []

    /// `base` with one CEA-861 block (as a TV's HDMI input sends): a video data block offering CEA modes 16
    /// (1920×1080 at 60 Hz) and 4 (1280×720 at 60 Hz), no detailed timings after it.
    package static let withCEA: [UInt8] = {
        var b = base + [UInt8](repeating: 0, count: 128)
        b[126] = 1
        b[128] = 0x02
        b[129] = 3
        b[132...134] = [0x42, 16, 4]
        b[130] = 135 - 128
        return EDID.checksummed(b)
    }()

    /// A 5K monitor's EDID ("DEL", "UP2715K"): `base`'s block, then a DisplayID 1.3 block holding its
    /// 5120×2880 mode at 60 Hz (938.25 MHz, reduced blanking), which no base block can hold.
    package static let withDisplayID: [UInt8] = {
        let native = EDID.Timing(pixelClockKHz: 938_250, width: 5120, horizontalBlank: 160, horizontalSyncOffset: 48, horizontalSyncWidth: 32,
                                 height: 2880, verticalBlank: 82, verticalSyncOffset: 3, verticalSyncWidth: 5)
        let mm = Size(width: 597, height: 336)
        guard var b = EDID.block(manufacturer: "DEL", model: "UP2715K", serialNumber: "ABC123", physicalSize: mm, timing: .hd1080p60),
              let displayID = EDID.displayIDBlock(manufacturer: "DEL", model: "UP2715K", physicalSize: mm, timings: [native]) else { return [] }
        b[126] = 1
        return EDID.checksummed(b) + displayID
    }()

    /// A DisplayID block whose section says 200 bytes, past its block's 121.
    package static let displayIDSectionPast: [UInt8] = {
        var b = withDisplayID
        b[130] = 200
        return EDID.checksummed(b)
    }()

    /// A DisplayID block whose first data block says 120 bytes of payload, past the section's end.
    package static let displayIDDataBlockOverrun: [UInt8] = {
        var b = withDisplayID
        b[128 + 5 + 2] = 120
        return EDID.checksummed(b)
    }()

    /// The base block saying it has 127 extension blocks that are not there.
    package static let missingExtensions: [UInt8] = {
        var b = base
        b[126] = 0x7F
        return EDID.checksummed(b)
    }()

    /// 128 extension blocks, all present: one past what an X server's signed count can hold.
    package static let tooManyExtensions: [UInt8] = {
        var b = base + [UInt8](repeating: 0, count: 128 * 128)
        b[126] = 0x80
        return EDID.checksummed(b)
    }()

    /// A CEA block whose detailed timings start at offset 255, past its 128 bytes.
    package static let ceaOffsetOutside: [UInt8] = {
        var b = withCEA
        b[130] = 255
        return EDID.checksummed(b)
    }()

    /// A CEA block whose one data block says it is 31 bytes long where the timings start 3 bytes on.
    package static let ceaDataBlockOverrun: [UInt8] = {
        var b = withCEA
        b[132] = 0x40 | 31
        return EDID.checksummed(b)
    }()

    /// Nine display range limits descriptors (three in the base block, six in a CEA block): Xorg keeps
    /// eight in a fixed array.
    package static let nineRangeDescriptors: [UInt8] = {
        var b = withCEA
        let range: [UInt8] = [0, 0, 0, 0xFD, 0, 50, 75, 30, 83, 17, 0, 0x0A, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20]
        for start in [72, 90, 108] { b[start..<(start + 18)] = range[0...] }
        b[130] = 4
        for slot in 0..<6 { b[(132 + 18 * slot)..<(150 + 18 * slot)] = range[0...] }
        return EDID.checksummed(b)
    }()

    /// `withCEA` whose extension block's checksum is off by one (the server ignores checksums; a person's
    /// file with one is a mistake).
    package static let badExtensionChecksum: [UInt8] = {
        var b = withCEA
        b[255] &+= 1
        return b
    }()

    /// 129 bytes: not whole blocks.
    package static let partialBlock: [UInt8] = base + [0]

    /// Every malformed one with what it is, for tests that try each.
    package static let malformed: [(name: String, bytes: [UInt8])] = [
        ("127 extension blocks said, none there", missingExtensions),
        ("128 extension blocks", tooManyExtensions),
        ("CEA timings at offset 255", ceaOffsetOutside),
        ("CEA data block past the timings", ceaDataBlockOverrun),
        ("nine range descriptors", nineRangeDescriptors),
        ("129 bytes", partialBlock),
        ("a DisplayID section past its block", displayIDSectionPast),
        ("a DisplayID data block past its section", displayIDDataBlockOverrun),
    ]
}
