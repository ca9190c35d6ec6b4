import Foundation
import Multihead
import MultiheadTesting
import Testing

/// The screens of `multihead screens --json`, by name.
func screensJSON(_ stdout: String) throws -> [String: [String: Any]] {
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]])
    return Dictionary(uniqueKeysWithValues: rows.compactMap { r in (r["name"] as? String).map { ($0, r) } })
}

@MainActor
@Suite("The command line tells the whole RandR truth", .timeLimit(.minutes(2)))
struct RandRCommandTests {
    @Test("screens --json: primary, outputs, mirrors, rotation, reflection, interlaced, as xrandr says")
    func jsonSaysItAll() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [
            .init("DUMMY0", "1024x768+0+0", primary: true), .init("DUMMY1", "1024x768+1024+0"),
        ])
        defer { server.stop() }
        _ = try await server.xrandr(["--newmode", "1080i", "74.25", "1920", "2008", "2052", "2200", "1080", "1084", "1094", "1125", "interlace"])
        _ = try await server.xrandr(["--addmode", "DUMMY0", "1080i"])
        try server.plug("DUMMY2", "1024x768+0+0")   // the same rectangle as DUMMY0: a mirror
        var r = try await multihead(["screens", "--json"], environment: server.environment)
        #expect(r.status == 0, "\(r.stderr)")
        var screens = try screensJSON(r.stdout)
        let d0 = try #require(screens["DUMMY0"])
        #expect(d0["primary"] as? Bool == true && d0["main"] as? Bool == true && d0["standIn"] as? Bool == false)
        #expect(d0["outputs"] as? [String] == ["DUMMY0"] && d0["mirrors"] is NSNull)
        #expect(d0["rotation"] as? Int == 0 && d0["reflection"] as? String == "none")
        let modes = try #require(d0["modes"] as? [[String: Any]])
        #expect(modes.contains { $0["interlaced"] as? Bool == true && $0["refreshRate"] as? Double == 60 && $0["height"] as? Int == 1080 })
        #expect(screens["DUMMY2"]?["mirrors"] as? String == "DUMMY0")
        #expect(screens["DUMMY1"]?["primary"] as? Bool == false)
        // A monitor spanning two outputs.
        try server.unplug("DUMMY2")
        _ = try await server.xrandr(["--setmonitor", "WIDE", "2048/541x768/203+0+0", "DUMMY0,DUMMY1"])
        r = try await multihead(["screens", "--json"], environment: server.environment)
        screens = try screensJSON(r.stdout)
        #expect(screens["WIDE"]?["outputs"] as? [String] == ["DUMMY0", "DUMMY1"], "\(r.stdout)")
    }

    @Test("the table prints rates with two decimals unless whole; --rate with no such rate is 64 listing the rates")
    func ratesInTheTable() async throws {
        let server = try await VirtualServer.start(.xorgDummy)
        defer { server.stop() }
        _ = try await server.xrandr(["--newmode", "1080p5994", "148.352", "1920", "2008", "2052", "2200", "1080", "1084", "1089", "1125"])
        _ = try await server.xrandr(["--addmode", "DUMMY1", "1080p5994"])
        _ = try await server.xrandr(["--newmode", "1080p144", "332.75", "1920", "1968", "2000", "2080", "1080", "1083", "1088", "1112"])
        _ = try await server.xrandr(["--addmode", "DUMMY1", "1080p144"])
        let env = server.environment
        var r = try await multihead(["plug", "DUMMY1", "1920x1080+1024+0", "--rate", "59.94"], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        r = try await multihead(["screens"], environment: env)
        #expect(r.stdout.contains("1920x1080@59.94Hz") && r.stdout.contains("1024x768@60Hz"), "\(r.stdout)")
        r = try await multihead(["mode", "DUMMY1", "1920x1080", "--rate", "144"], environment: env)
        #expect(r.status == 0 && r.stdout.contains("143.86Hz"), "\(r.stdout) \(r.stderr)")
        r = try await multihead(["mode", "DUMMY1", "1920x1080", "--rate", "75"], environment: env)
        #expect(r.status == 64 && r.stderr.contains("59.94 Hz, 143.86 Hz"), "\(r.stderr)")
        r = try await multihead(["screens"], environment: env)
        #expect(r.stdout.contains("1920x1080@143.86Hz"))
    }

    @Test("watch prints mainChange, and a modeChange with what the screen was before")
    func watchMainAndPrevious() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [
            .init("DUMMY0", "1024x768+0+0", primary: true), .init("DUMMY1", "800x600+1024+0"),
        ])
        defer { server.stop() }
        let err = Pipe()
        let (p, out) = try launchMultihead(["watch", "--json", "--count", "2", "--timeout", "20"], environment: server.environment, stderr: err)
        #expect(await LineReader(err).waitFor("watching"))
        _ = try await server.xrandr(["--output", "DUMMY1", "--primary"])
        let stdout = LineReader(out)
        var lines: [String] = []
        if let first = await stdout.nextLine() { lines.append(first) }
        _ = try await server.xrandr(["--output", "DUMMY1", "--pos", "1024x100"])
        while let line = await stdout.nextLine() { lines.append(line) }
        await exited(p)
        #expect(p.terminationStatus == 0)
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try #require(objects.count == 2, "\(lines)")
        #expect(objects[0]["event"] as? String == "mainChange")
        #expect((objects[0]["screen"] as? [String: Any])?["name"] as? String == "DUMMY1")
        #expect(objects[1]["event"] as? String == "modeChange")
        let previous = try #require(objects[1]["previous"] as? [String: Any])
        #expect((previous["frame"] as? [String: Any])?["y"] as? Int == 0)
        #expect(((objects[1]["screen"] as? [String: Any])?["frame"] as? [String: Any])?["y"] as? Int == 100)
        #expect((previous["currentMode"] as? [String: Any])?["width"] as? Int == 800)
    }
}
