import Foundation
import Multihead
@testable import MultiheadServerControl
@testable import MultiheadTesting
import Testing

/// `multihead plug` with a monitor's EDID: --manufacturer, --model, --serial-number, --physical-size, --edid.
@MainActor
@Suite("plug with an EDID", .timeLimit(.minutes(3)))
struct PlugIdentityTests {
    @Test("on an Xorg+dummy output: screens --json shows the EDID's manufacturer, model, serial number and size")
    func plugWithIdentity() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [.init("DUMMY0", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let r = try await multihead(["plug", "DUMMY1", "1920x1080+1024+0", "--manufacturer", "DEL", "--model", "DELL U2720Q",
                                     "--serial-number", "ABC123", "--physical-size", "597x336mm"], environment: server.environment)
        #expect(r.status == 0, "\(r.stderr)")
        let s = try await multihead(["screens", "--json"], environment: server.environment)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(s.stdout.utf8)) as? [[String: Any]])
        let tv = try #require(json.first { $0["name"] as? String == "DUMMY1" })
        #expect(tv["manufacturer"] as? String == "DEL" && tv["model"] as? String == "DELL U2720Q" && tv["serialNumber"] as? String == "ABC123")
        #expect(tv["physicalSize"] as? [String: Int] == ["width": 597, "height": 336])
        let u = try await multihead(["unplug", "DUMMY1"], environment: server.environment)
        #expect(u.status == 0, "\(u.stderr)")
    }

    @Test("mistakes are 64 with the reason: a virtual monitor, a bad id, a long name, a bad size, an unreadable or bad --edid")
    func mistakes() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        let garbage = NSTemporaryDirectory() + "mh-test-\(UUID().uuidString).bin"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: garbage))
        defer { unlink(garbage) }
        let cases: [([String], String)] = [
            (["--model", "TV"], "virtual monitor"),
            (["--manufacturer", "dell"], "three capital letters"),
            (["--model", "a name that is too long"], "1 to 13"),
            (["--physical-size", "wide"], "WxHmm"),
            (["--edid", "/nonexistent/edid.bin"], "cannot read"),
            (["--edid", garbage], "holds no EDID"),
            (["--edid", garbage, "--model", "TV"], "drop --manufacturer"),
        ]
        for (args, reason) in cases {
            let r = try await multihead(["plug", "EXT", "800x600+1920+0"] + args, environment: server.environment)
            #expect(r.status == 64 && r.stderr.contains(reason), "\(args): \(r.status) \(r.stderr)")
        }
        #expect(try server.controlConnection().monitorFrame(named: "EXT") == nil)
    }

    @Test("on --xorg, an EDID file with a wrong length, extension count, checksum or CEA block is 64 naming the fault; the cable stays out")
    func malformedEDIDFiles() async throws {
        let server = try await VirtualServer.start(.xorg, monitors: [.init("DP-1", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let file = NSTemporaryDirectory() + "mh-test-edid-\(UUID().uuidString.prefix(8)).bin"
        defer { unlink(file) }
        let samples = EDIDSamples.malformed + [("a wrong checksum in block 1", EDIDSamples.badExtensionChecksum)]
        for (name, bytes) in samples {
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let r = try await multihead(["plug", "DP-2", "1920x1080+1920+0", "--edid", file], environment: server.environment)
            #expect(r.status == 64 && r.stderr.contains("holds no EDID a monitor sends: \(EDID.fault(in: bytes) ?? "")"), "\(name): \(r.status) \(r.stderr)")
        }
        let screens = try await multihead(["screens", "--json"], environment: server.environment)
        #expect(screens.status == 0 && !screens.stdout.contains("DP-2"), "\(screens.stdout)")
        try Data(EDIDSamples.withCEA).write(to: URL(fileURLWithPath: file))
        let good = try await multihead(["plug", "DP-2", "1920x1080+1920+0", "--edid", file], environment: server.environment)
        #expect(good.status == 0, "\(good.stderr)")
    }
}
