import Foundation
import MultiheadControl
import MultiheadTesting
import Testing

/// The configuration serial (docs/control-socket.md): what a test waits on for "the output manager has
/// applied". Read from the socket, the CLI and `watch`, as a tester would.
@Suite("The configuration serial", .timeLimit(.minutes(3)))
struct ConfigurationSerialTests {
    @Test("it grows with every change, whoever makes it, and stays while nothing changes", arguments: ["--xvfb", "--xorg"])
    func growsWithEveryChange(kind: String) async throws {
        let (p, out) = try launchMultihead(["server", kind, "--monitors", "1280x720"], environment: [:])
        let env = await LineReader(out).serverAssignments()
        defer { p.terminate() }
        let path = try #require(env["MULTIHEAD_CONTROL"])
        func serial() async throws -> Int {
            let v = try await controlRequest(path, #"{"request":"screens"}"#)
            return try #require(v["configurationSerial"]?.int, "\(v)")
        }
        func change(_ request: String) async throws -> Int {
            let v = try await controlRequest(path, request)
            #expect(v["ok"] == .bool(true), "\(request): \(v)")
            return try #require(v["configurationSerial"]?.int, "\(request): \(v)")
        }
        let fresh = try await serial()
        #expect(try await serial() == fresh)
        let name = kind == "--xorg" ? "HDMI-1" : "EXT-1"
        let plugged = try await change(#"{"request":"plug","name":"\#(name)","geometry":"1920x1080+1280+0"}"#)
        #expect(plugged > fresh)
        #expect(try await serial() == plugged)
        let moded = try await change(#"{"request":"mode","name":"\#(name)","size":"1280x720"}"#)
        #expect(moded > plugged)
        var last = moded
        if kind == "--xorg" {
            // Another client's change: xrandr moves the monitor.
            let xrandr = Process()
            xrandr.executableURL = URL(fileURLWithPath: "/usr/bin/xrandr")
            xrandr.arguments = ["--output", name, "--pos", "1280x100"]
            xrandr.environment = ["DISPLAY": env["DISPLAY"] ?? "", "XAUTHORITY": env["XAUTHORITY"] ?? ""]
            try xrandr.run()
            xrandr.waitUntilExit()
            #expect(xrandr.terminationStatus == 0)
            last = try await serial()
            #expect(last > moded)
        }
        // The CLI prints the same, through the socket and straight from the X server.
        let viaSocket = try await multihead(["screens", "--json", "--serial"], environment: ["MULTIHEAD_CONTROL": path])
        let direct = try await multihead(["screens", "--json", "--serial", "--display", env["DISPLAY"] ?? ""],
                                         environment: ["XAUTHORITY": env["XAUTHORITY"] ?? ""])
        for printed in [viaSocket, direct] {
            #expect(printed.status == 0, "\(printed.stderr)")
            let v = JSONValue.parse(Array(printed.stdout.utf8))
            #expect(v?["configurationSerial"]?.int == last, "\(printed.stdout)")
            guard case .array(let screens)? = v?["screens"] else { Issue.record("no screens: \(printed.stdout)"); continue }
            let names = screens.compactMap { $0["name"]?.string }
            #expect(names.contains(name), "\(names)")
        }
        let refused = try await multihead(["screens", "--serial", "--display", env["DISPLAY"] ?? ""])
        #expect(refused.status == 64 && refused.stderr.contains("--serial goes with --json"), "\(refused.stderr)")
        let unplugged = try await change(#"{"request":"unplug","name":"\#(name)"}"#)
        #expect(unplugged > last)
        #expect(try await serial() == unplugged)
        p.terminate()
        _ = await finish(p, reading: out)
    }

    @Test("watch prints each event with the serial of the read that posted it") @MainActor
    func watchCarriesIt() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let (p, out) = try launchMultihead(["watch", "--json", "--ready", "--count", "2", "--timeout", "20"], environment: server.environment,
                                           stderr: Pipe())
        let stdout = LineReader(out)
        let ready = await stdout.nextLine().flatMap { JSONValue.parse(Array($0.utf8)) }
        let first = try #require(ready?["configurationSerial"]?.int, "\(String(describing: ready))")
        try server.plug("EXT-8", "640x480+1920+0")
        let connect = await stdout.nextLine().flatMap { JSONValue.parse(Array($0.utf8)) }
        #expect(connect?["event"]?.string == "connect")
        let plugged = try #require(connect?["configurationSerial"]?.int)
        #expect(plugged > first)
        try server.unplug("EXT-8")
        let disconnect = await stdout.nextLine().flatMap { JSONValue.parse(Array($0.utf8)) }
        #expect(disconnect?["event"]?.string == "disconnect")
        #expect(try #require(disconnect?["configurationSerial"]?.int) > plugged)
        _ = await finish(p, reading: out)
        #expect(p.terminationStatus == 0)
    }
}
