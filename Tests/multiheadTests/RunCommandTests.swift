import Foundation
import Multihead
@testable import multihead
import MultiheadTesting
import Testing

/// `multihead run`: a command on a private server, its status returned, nothing left however it ends.
@MainActor
@Suite("multihead run: xvfb-run's shape", .timeLimit(.minutes(3)))
struct RunCommandTests {
    static var binary: String { OutputTests.binary }

    /// Starts `multihead run ARGS` with its output on pipes.
    func start(_ args: [String]) throws -> ChildProcess {
        try ChildProcess.spawn(Self.binary, ["run"] + args, environment: ["PATH": Self.path], diesWithParent: false)
    }

    /// PATH with the built binary's folder first, so that the command finds `multihead`.
    static var path: String {
        URL(fileURLWithPath: binary).deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    /// Reads a child's stdout up to a line containing `text`; that line, or nil at its end.
    func line(_ child: ChildProcess, containing text: String) async -> String? {
        await onOwnThread { () -> String? in
            var bytes: [UInt8] = [], b: UInt8 = 0
            while read(child.stdout, &b, 1) == 1 {
                if b != UInt8(ascii: "\n") { bytes.append(b); continue }
                let line = String(decoding: bytes, as: UTF8.self)
                if line.contains(text) { return line }
                bytes.removeAll()
            }
            return nil
        }
    }

    @Test("the command's exit status, DISPLAY and XAUTHORITY set for it, plug without --force, nothing left")
    func statusAndEnvironment() async throws {
        let child = try start(["--xvfb", "--monitors", "800x600", "--", "/bin/sh", "-c",
                               "echo \"display=$DISPLAY auth=$XAUTHORITY\"; multihead plug EXT 640x480+800+0 && multihead screens; exit 3"])
        let (status, out, err) = await onOwnThread { child.collect() }
        let text = String(decoding: out, as: UTF8.self)
        #expect(status == 3, "\(String(decoding: err, as: UTF8.self))")
        #expect(text.contains("display=:") && text.contains("auth=/"), "\(text)")
        #expect(text.contains("VIRTUAL-1") && text.contains("EXT"), "\(text)")
        #expect(sessionDirectories(of: child.pid).isEmpty)
    }

    @Test("a command that cannot be started: 127 when there is none, 126 when it is not executable, no server started")
    func cannotStart() async throws {
        let missing = try start(["--", "no-such-command-\(UUID().uuidString.prefix(6))"])
        let (s1, _, e1) = await onOwnThread { missing.collect() }
        #expect(s1 == 127, "\(String(decoding: e1, as: UTF8.self))")
        #expect(String(decoding: e1, as: UTF8.self).contains("command not found"))
        let file = NSTemporaryDirectory() + "mh-noexec-\(UUID().uuidString.prefix(8))"
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let notExecutable = try start([file])
        let (s2, _, e2) = await onOwnThread { notExecutable.collect() }
        #expect(s2 == 126, "\(String(decoding: e2, as: UTF8.self))")
        #expect(sessionDirectories(of: missing.pid).isEmpty && sessionDirectories(of: notExecutable.pid).isEmpty)
        let none = try await multihead(["run"])
        #expect(none.status == 64, "\(none.stderr)")
    }

    @Test("SIGTERM, SIGINT or SIGHUP to run: passed to the command, which ends as it chooses; then 128 + the signal, nothing left",
          arguments: [SIGTERM, SIGINT, SIGHUP])
    func signalForwarded(sig: Int32) async throws {
        // The command says when it is ready, and what it got.
        let child = try start(["--", "/bin/sh", "-c",
                               "trap 'echo got-signal; exit 9' TERM INT HUP; echo ready; while :; do sleep 0.05; done"])
        #expect(await line(child, containing: "ready") != nil)
        kill(child.pid, sig)
        #expect(await line(child, containing: "got-signal") != nil)
        let (status, _, err) = await onOwnThread { child.collect() }
        #expect(status == 128 + sig, "\(String(decoding: err, as: UTF8.self))")
        #expect(sessionDirectories(of: child.pid).isEmpty)
    }

    @Test("the X server dies under the command: the command gets SIGTERM, run exits 69 with the reason, nothing left")
    func serverDies() async throws {
        let child = try start(["--print-env", "--", "/bin/sh", "-c",
                               "trap 'echo told; exit 0' TERM; echo ready; while :; do sleep 0.05; done"])
        #expect(await line(child, containing: "ready") != nil)
        // --print-env wrote PID= (the X server) to stderr before the command started.
        let serverPID = await onOwnThread { () -> Int32? in
            var bytes: [UInt8] = [], b: UInt8 = 0
            while read(child.stderr, &b, 1) == 1 {
                if b != UInt8(ascii: "\n") { bytes.append(b); continue }
                let line = String(decoding: bytes, as: UTF8.self)
                if line.hasPrefix("PID=") { return Int32(line.dropFirst(4)) }
                bytes.removeAll()
            }
            return nil
        }
        let pid = try #require(serverPID)
        kill(pid, SIGKILL)
        #expect(await line(child, containing: "told") != nil)
        let (status, _, err) = await onOwnThread { child.collect() }
        #expect(status == 69, "\(String(decoding: err, as: UTF8.self))")
        #expect(String(decoding: err, as: UTF8.self).contains("was ended by signal 9"))
        #expect(sessionDirectories(of: child.pid).isEmpty)
    }

    @Test("CommandLookup finds a command as a shell does")
    func lookup() throws {
        #expect(CommandLookup.find("sh", path: "/nonexistent:/bin") == .found("/bin/sh"))
        #expect(CommandLookup.find("/bin/sh", path: nil) == .found("/bin/sh"))
        #expect(CommandLookup.find("no-such-\(UUID().uuidString.prefix(6))", path: "/bin") == .notFound)
        #expect(CommandLookup.find("/etc/passwd", path: nil) == .notExecutable("/etc/passwd"))
        #expect(CommandLookup.find("/", path: nil).failure?.status == 126)
    }
}
