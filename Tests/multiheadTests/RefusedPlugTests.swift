import Foundation
import Multihead
@testable import MultiheadServerControl
@testable import MultiheadTesting
import Testing

/// A refused change leaves the server as it was: `xrandr --prop` (each output's connection, modes and
/// properties, the EDID among them) reads the same before and after, so that a profile tool or a toolkit
/// never fingerprints a half-plugged output.
@MainActor
@Suite("A refused plug changes nothing", .timeLimit(.minutes(3)))
struct RefusedPlugTests {
    @Test("on --xorg: a plug whose EDID has no mode at the rate asked is 64 naming the rates, and xrandr reads as before; 4K at 144 Hz is a monitor, accepted")
    func refusedCableLeavesNoTrace() async throws {
        let server = try await VirtualServer.start(.xorg, monitors: [.init("DP-1", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let file = NSTemporaryDirectory() + "mh-test-edid-\(UUID().uuidString.prefix(8)).bin"
        defer { unlink(file) }
        // A 4K monitor of 60 Hz only, asked for 75 Hz: on a disconnected output, then on one with a monitor.
        try Data(try ServerControl.MonitorIdentity(manufacturer: "SAM", model: "U28E590").edid(preferred: Size(width: 3840, height: 2160)))
            .write(to: URL(fileURLWithPath: file))
        for output in ["DP-5", "DP-1"] {
            let before = try await server.xrandr(["--prop"])
            let r = try await multihead(["plug", output, "3840x2160+0+1080", "--edid", file, "--rate", "75"], environment: server.environment)
            #expect(r.status == 64 && r.stderr.contains("no 3840x2160 mode at 75 Hz"), "\(output): \(r.status) \(r.stderr)")
            let after = try await server.xrandr(["--prop"])
            #expect(after == before, "\(output): xrandr changed:\n\(Self.changed(before, after))")
        }
        // The same through the identity options, as the report: 144 Hz is now a mode of the EDID made.
        let ok = try await multihead(["plug", "DP-5", "3840x2160+0+1080", "--manufacturer", "SAM", "--model", "X", "--serial-number", "1",
                                      "--rate", "144"], environment: server.environment)
        #expect(ok.status == 0, "\(ok.stderr)")
        let screens = try await multihead(["screens", "--json"], environment: server.environment)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(screens.stdout.utf8)) as? [[String: Any]])
        let dp5 = try #require(json.first { $0["name"] as? String == "DP-5" }, "\(screens.stdout)")
        let mode = try #require(dp5["currentMode"] as? [String: Any])
        #expect(mode["width"] as? Int == 3840 && abs((mode["refreshRate"] as? Double ?? 0) - 144) < 0.5, "\(mode)")
    }

    @Test("on Xorg+dummy: a plug with an EDID refused for its place (a desktop past the video memory) leaves the outputs' modes and EDIDs as they were")
    func refusedDummyLeavesNoTrace() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [.init("DUMMY0", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let before = try await server.xrandr(["--prop"])
        // The EDID is published and a mode made and added before the screen is grown to 9000x9000, which the
        // dummy's 256000 kB of video memory refuses.
        let r = try await multihead(["plug", "DUMMY3", "3000x3000+6000+6000", "--manufacturer", "DEL", "--model", "P3K"],
                                    environment: server.environment)
        #expect(r.status == 64 && r.stderr.contains("9000x9000"), "\(r.status) \(r.stderr)")
        let after = try await server.xrandr(["--prop"])
        #expect(after == before, "xrandr changed:\n\(Self.changed(before, after))")
    }

    /// The lines of `after` that `before` does not have, and those gone.
    static func changed(_ before: String, _ after: String) -> String {
        let a = before.split(separator: "\n"), b = after.split(separator: "\n")
        return (b.filter { !a.contains($0) }.map { "+ \($0)" } + a.filter { !b.contains($0) }.map { "- \($0)" }).joined(separator: "\n")
    }
}
