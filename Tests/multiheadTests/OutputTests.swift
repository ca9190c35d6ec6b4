import Foundation
import Multihead
import MultiheadTesting
import Testing

/// What a shell can do to a command's output: a full device, a closed descriptor, a signal mid-write.
@MainActor
@Suite("Output a shell can refuse: 74 with the reason, no temporary file left", .timeLimit(.minutes(3)))
struct OutputTests {
    /// The built binary's path.
    static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("multihead").path
    }

    /// Runs `multihead ARGS` through `sh -c` with `redirection` after it; its status and stderr.
    static func run(_ args: [String], _ redirection: String, environment: [String: String]) async throws -> (status: Int32, stderr: String) {
        let child = try ChildProcess.spawn("/bin/sh", ["-c", "exec \"$0\" \"$@\" \(redirection)", binary] + args,
                                           environment: environment, diesWithParent: true)
        let (status, _, err) = await onOwnThread { child.collect() }
        return (status, String(decoding: err, as: UTF8.self))
    }

    @Test("screens, screens --json, screenshot and mode: a full stdout or a closed one is 74 with the reason",
          arguments: [["screens"], ["screens", "--json"], ["screenshot", "-o", "SHOT"], ["mode", "VIRTUAL-1", "1920x1080"]])
    func refusedOutput(args: [String]) async throws {
        let server = try await VirtualServer.start(monitors: [.init("VIRTUAL-1", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let dir = NSTemporaryDirectory() + "mh-out-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let args = args.map { $0 == "SHOT" ? dir + "/shot.png" : $0 }
        let full = try await Self.run(args, "> /dev/full", environment: server.environment)
        #expect(full.status == 74, "\(full.stderr)")
        #expect(full.stderr.contains("cannot write to standard output: No space left on device"), "\(full.stderr)")
        let closed = try await Self.run(args, ">&-", environment: server.environment)
        #expect(closed.status == 74, "\(closed.stderr)")
        #expect(closed.stderr.contains("standard output is closed"), "\(closed.stderr)")
        // The same command with its output where it can go: 0 (the failures above were the output's).
        let fine = try await Self.run(args, "> /dev/null", environment: server.environment)
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    @Test("watch --json into a full stdout: 74 at the first event, with the reason")
    func watchIntoFullOutput() async throws {
        let server = try await VirtualServer.start(monitors: [.init("VIRTUAL-1", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let child = try ChildProcess.spawn("/bin/sh", ["-c", "exec \"$0\" watch --json --timeout 30 > /dev/full", Self.binary],
                                           environment: server.environment, diesWithParent: true)
        // Its first line on stderr says it watches; then a plug makes an event to write.
        let ready = await onOwnThread { () -> String in
            var bytes: [UInt8] = [], b: UInt8 = 0
            while read(child.stderr, &b, 1) == 1, b != UInt8(ascii: "\n") { bytes.append(b) }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(ready.contains("watching"), "\(ready)")
        try server.plug("EXT", "800x600+1024+0")
        let (status, _, err) = await onOwnThread { child.collect() }
        #expect(status == 74, "\(String(decoding: err, as: UTF8.self))")
        #expect(String(decoding: err, as: UTF8.self).contains("No space left on device"))
    }

    @Test("unplug of Xvfb's own output `screen`: 64 with the reason, the monitors unchanged")
    func unplugXvfbOutput() async throws {
        let server = try await VirtualServer.start(monitors: [.init("VIRTUAL-1", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let before = try await Self.run(["screens", "--json"], "", environment: server.environment)
        let r = try await multihead(["unplug", "screen"], environment: server.environment)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("Xvfb's own output"), "\(r.stderr)")
        let after = try await multihead(["screens"], environment: server.environment)
        #expect(after.status == 0 && before.status == 0)
        #expect(after.stdout.contains("VIRTUAL-1"), "\(after.stdout)")
    }
}
