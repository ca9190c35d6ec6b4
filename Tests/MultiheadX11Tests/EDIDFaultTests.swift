import Multihead
@testable import MultiheadServerControl
@testable import MultiheadTesting
import Testing

/// What the CLI and `ServerControl.plug` check of an EDID before a cable carries it: the rules of
/// Multihead's Xorg driver, and the checksums. Pure: no server.
@Suite("EDID: the faults a monitor's EDID must not have")
struct EDIDFaultTests {
    @Test("a monitor's EDID, with and without a CEA block, has no fault")
    func valid() {
        #expect(EDID.fault(in: EDIDSamples.base) == nil)
        #expect(EDID.fault(in: EDIDSamples.withCEA) == nil)
        #expect(EDID.fault(in: EDIDSamples.withDisplayID) == nil && EDIDSamples.withDisplayID.count == 256)
        #expect(EDID(EDIDSamples.withCEA)?.model == "DELL U2720Q")
    }

    @Test("each malformed EDID is named by its fault")
    func faults() {
        let expected: [([UInt8], String)] = [
            (EDIDSamples.missingExtensions, "byte 126 says 1 + 127 extension blocks"),
            (EDIDSamples.tooManyExtensions, "128 extension blocks"),
            (EDIDSamples.ceaOffsetOutside, "offset (byte 2) is 255"),
            (EDIDSamples.ceaDataBlockOverrun, "runs past its detailed timing offset"),
            (EDIDSamples.nineRangeDescriptors, "9 display range limits descriptors"),
            (EDIDSamples.displayIDSectionPast, "section length (byte 2) is 200"),
            (EDIDSamples.displayIDDataBlockOverrun, "a data block of DisplayID block 1 runs past its section"),
            (EDIDSamples.badExtensionChecksum, "block 1's checksum is wrong"),
            (EDIDSamples.partialBlock, "129 bytes"),
            (Array(EDIDSamples.base.prefix(100)), "100 bytes"),
            ([UInt8](repeating: 0, count: 128), "EDID header"),
        ]
        for (bytes, text) in expected {
            let fault = EDID.fault(in: bytes)
            #expect(fault?.contains(text) == true, "\(text): \(fault ?? "no fault")")
        }
        #expect(EDIDSamples.malformed.allSatisfy { EDID.fault(in: $0.bytes) != nil })
    }

    @Test("a range descriptor alone is fine; a second one anywhere is a fault; version 2 is a fault")
    func edges() {
        var one = EDIDSamples.withCEA
        one[108..<126] = [0, 0, 0, 0xFD, 0, 50, 75, 30, 83, 17, 0, 0x0A, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20][0...]
        #expect(EDID.fault(in: EDID.checksummed(one)) == nil)
        var two = one
        two[130] = 4
        two[132..<150] = one[108..<126]
        #expect(EDID.fault(in: EDID.checksummed(two))?.contains("2 display range") == true)
        var version = EDIDSamples.base
        version[18] = 2
        #expect(EDID.fault(in: EDID.checksummed(version))?.contains("version") == true)
    }
}
