import Foundation
import MultiheadControl
import MultiheadTesting
import Testing

/// The issue's report, through `multihead server` on the default kind (`--xorg`) and its control socket:
/// a DCI 4K and an 8K monitor from `--monitors`, a 5K one plugged, a lease of an 8K beside a 4K.
@MainActor
@Suite("server --xorg with 4096 pixels and more", .timeLimit(.minutes(3)))
struct LargeMonitorCommandTests {
    /// One request on a connection of its own, off the main actor; its answer.
    static func ask(_ path: String, _ request: String) async throws -> JSONValue {
        try await controlRequest(path, request)
    }

    /// The screens the socket lists: "NAME WxH+X+Y".
    static func screens(_ path: String) async throws -> [String] {
        let answer = try await ask(path, #"{"request":"screens"}"#)
        guard case .array(let screens)? = answer["screens"] else { throw CommandFailure(status: 70, code: "test", message: "no screens: \(answer)") }
        return screens.map { s in
            let f = s["frame"]
            return "\(s["name"]?.string ?? "?") \(f?["width"]?.int ?? 0)x\(f?["height"]?.int ?? 0)+\(f?["x"]?.int ?? 0)+\(f?["y"]?.int ?? 0)"
        }
    }

    @Test("server --monitors 4096x2160,7680x4320 starts with both; plug HDMI-1 5120x2880 works; a lease of 7680x4320,3840x2160 keeps the server")
    func largeLayouts() async throws {
        let (p, out) = try launchMultihead(["server", "--xorg", "--monitors", "4096x2160,7680x4320"], environment: [:])
        let env = await LineReader(out).serverAssignments()
        defer { if p.isRunning { p.terminate() } }
        let path = try #require(env["MULTIHEAD_CONTROL"], "no control socket: \(env)")
        #expect(try await Self.screens(path) == ["DP-1 4096x2160+0+0", "DP-2 7680x4320+4096+0"])
        let plug = try await Self.ask(path, #"{"request":"plug","name":"HDMI-1","geometry":"5120x2880+0+4320"}"#)
        #expect(plug["ok"] == .bool(true), "\(plug)")
        #expect(try await Self.screens(path).contains("HDMI-1 5120x2880+0+4320"))
        let lease = try await Self.ask(path, #"{"request":"lease","monitors":["7680x4320","3840x2160"]}"#)
        #expect(lease["ok"] == .bool(true) && lease["replaced"] == .bool(false), "\(lease)")
        #expect(try await Self.screens(path) == ["DP-1 7680x4320+0+0", "DP-2 3840x2160+7680+0"])
        p.terminate()
        _ = await finish(p, reading: out)
        #expect(p.terminationStatus == 143)
    }

    @Test("eight leases of layouts 7700 to 7770 pixels wide on one server --xorg are served by one framebuffer: at most three X servers")
    func wideLeasesShareAServer() async throws {
        // The server process's own pool: no other test takes its idle server between two leases.
        let (p, out) = try launchMultihead(["server", "--xorg", "--monitors", "1920x1080"], environment: [:])
        let env = await LineReader(out).serverAssignments()
        defer { if p.isRunning { p.terminate() } }
        let path = try #require(env["MULTIHEAD_CONTROL"], "no control socket: \(env)")
        var servers: Set<Int> = [Int(env["PID"] ?? "") ?? 0]
        for width in stride(from: 7700, through: 7770, by: 10) {
            let lease = try await Self.ask(path, #"{"request":"lease","monitors":["1920x1080","\#(width - 1920)x1080"]}"#)
            #expect(lease["ok"] == .bool(true), "\(width): \(lease)")
            servers.insert(lease["pid"]?.int ?? 0)
            #expect(try await Self.screens(path) == ["DP-1 1920x1080+0+0", "DP-2 \(width - 1920)x1080+1920+0"])
        }
        #expect(servers.count <= 3, "\(servers.count) X servers: \(servers.sorted())")
        p.terminate()
        _ = await finish(p, reading: out)
        #expect(p.terminationStatus == 143)
    }
}

/// A layout the kind cannot show, asked by `lease`: refused (64, naming the sizes) before the lease held
/// is ended, which stays as it was. Before, the lease and its warm server were ended first, then the start
/// failed (`didNotStart` 69, or an internal error 70 on RRSetCrtcConfig's BadValue).
@MainActor
@Suite("A refused layout leaves the lease held", .timeLimit(.minutes(3)))
struct RefusedLayoutTests {
    @Test("lease of a layout past the kind's limits: invalidMonitor, and the lease held still serves its requests",
          arguments: [("--xorg-dummy", #"["9000x9000"]"#, "video memory"), ("--xorg", #"["16384x1000","16384x1000"]"#, "32767"),
                      ("--xvfb", #"["16384x1000","16384x1000"]"#, "32767"), ("--wayland", #"["9000x4000"]"#, "8192")])
    func refusedLayoutKeepsTheLease(kind: String, monitors: String, named: String) async throws {
        let (p, out) = try launchMultihead(["server", kind, "--monitors", "640x480"], environment: [:])
        let env = await LineReader(out).serverAssignments()
        defer { if p.isRunning { p.terminate() } }
        let path = try #require(env["MULTIHEAD_CONTROL"], "no control socket: \(env)")
        let held = try await LargeMonitorCommandTests.ask(path, #"{"request":"lease"}"#)
        let id = try #require(held["lease"]?.string, "\(held)")
        let refused = try await LargeMonitorCommandTests.ask(path, #"{"request":"lease","monitors":\#(monitors)}"#)
        #expect(refused["ok"] == .bool(false) && refused["error"]?["code"]?.string == "invalidMonitor", "\(refused)")
        #expect(refused["error"]?["status"]?.int == 64 && refused["error"]?["message"]?.string?.contains(named) == true, "\(refused)")
        let screens = try await LargeMonitorCommandTests.ask(path, #"{"request":"screens","lease":"\#(id)"}"#)
        #expect(screens["ok"] == .bool(true), "the lease held was ended: \(screens)")
        let hello = try await LargeMonitorCommandTests.ask(path, #"{"request":"hello"}"#)
        #expect(hello["pid"]?.int == held["pid"]?.int && hello["leased"] == .bool(true), "\(hello) \(held)")
        p.terminate()
        _ = await finish(p, reading: out)
    }
}
