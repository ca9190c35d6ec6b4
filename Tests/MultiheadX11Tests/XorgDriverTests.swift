import Foundation
@testable import MultiheadTesting
import Testing

/// Building Multihead's Xorg driver for the installed server: what decides a rebuild and what a person
/// reads when the versions do not match. Pure functions, no server.
@Suite("Multihead's Xorg driver build")
struct XorgDriverTests {
    @Test("headers and server of one release match; of two releases they do not")
    func releases() {
        #expect(XorgDriver.sameRelease("21.1.7", "21.1.8"))
        #expect(!XorgDriver.sameRelease("21.1.7", "21.2.0") && !XorgDriver.sameRelease("21.1.7", "1.21.1"))
        #expect(VirtualServerError.xorgDriverMismatch(headers: "21.1.7", server: "21.2.0").description.contains("21.1.7"))
        #expect(VirtualServerError.xorgDriverMismatch(headers: "21.1.7", server: "21.2.0").description.contains("21.2.0"))
    }

    @Test("Xorg's complaint about a module of another ABI, found in its log, names both versions")
    func abiComplaint() throws {
        let log = NSTemporaryDirectory() + "mh-test-xorg-\(UUID().uuidString.prefix(8)).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        try Data("""
            [    12.345] (II) Loading /x/drivers/multihead_drv.so
            [    12.346] (EE) module ABI major version (24) doesn't match the server's version (25)
            [    12.347] (EE) Failed to load module "multihead" (module requirement mismatch, 0)

            """.utf8).write(to: URL(fileURLWithPath: log))
        let text = try #require(XorgDriver.abiComplaint(inLog: log))
        #expect(text.contains("(24)") && text.contains("(25)"))
        #expect(XorgDriver.abiComplaint(inLog: log + ".none") == nil)
    }

    @Test("a changed source is another build: the hash of its bytes")
    func sourceHash() {
        #expect(XorgDriver.hash(Data("a".utf8)) != XorgDriver.hash(Data("b".utf8)))
        #expect(XorgDriver.hash(Data()) == 0xcbf2_9ce4_8422_2325)
    }
}
