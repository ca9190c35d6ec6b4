import Foundation
import Multihead
@testable import MultiheadTesting
import Testing

/// What outlives whom: `multihead run` ends what its command left running, and `multihead server` ends
/// with the process that started it unless told to outlive it.
@MainActor
@Suite("Nothing outlives its owner", .timeLimit(.minutes(3)))
struct OutlivingTests {
    /// A file's lines once it holds a line starting with `prefix` (read again each 2 ms: a fact, bounded).
    func lines(of path: String, waitingFor prefix: String, bound: Duration = .seconds(30)) async -> [String] {
        let clock = ContinuousClock(), deadline = clock.now + bound
        while clock.now < deadline {
            let text = ProcessControl.procFile(path) ?? ""
            let lines = text.split(separator: "\n").map(String.init)
            if lines.contains(where: { $0.hasPrefix(prefix) }) { return lines }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return []
    }

    /// Waits (bounded) for a process to end; whether it did.
    func ended(_ pid: Int32, bound: Duration = .seconds(15)) async -> Bool {
        let clock = ContinuousClock(), deadline = clock.now + bound
        while clock.now < deadline {
            if ProcessControl.hasEnded(pid) { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return ProcessControl.hasEnded(pid)
    }

    @Test("run ends what its command left running: a background job and a setsid one")
    func runEndsLeftovers() async throws {
        let file = NSTemporaryDirectory() + "mh-test-left-\(UUID().uuidString.prefix(8))"
        defer { unlink(file) }
        let r = try await multihead(["run", "--", "/bin/sh", "-c", "sleep 300 & echo $! > \(file); setsid sleep 300 & echo $! >> \(file)"])
        #expect(r.status == 0, "\(r.stderr)")
        let pids = (ProcessControl.procFile(file) ?? "").split(separator: "\n").compactMap { Int32($0) }
        #expect(pids.count == 2)
        for pid in pids { #expect(await ended(pid), "sleep \(pid) outlived run") }
    }

    /// Starts `multihead server ARGS` under a shell that then becomes `sleep`: the server's parent, to kill.
    func serverUnderParent(_ args: [String], output: String) throws -> ChildProcess {
        let command = ([OutputTests.binary, "server"] + args).map { "'\($0)'" }.joined(separator: " ")
        return try ChildProcess.spawn("/bin/sh", ["-c", "\(command) > '\(output)' 2>&1 & exec sleep 300"])
    }

    @Test("a server whose parent is killed with SIGKILL stops: its X server ends, its folder goes")
    func serverEndsWithParent() async throws {
        let output = NSTemporaryDirectory() + "mh-test-server-\(UUID().uuidString.prefix(8))"
        defer { unlink(output) }
        let parent = try serverUnderParent(["--monitors", "800x600"], output: output)
        let lines = await lines(of: output, waitingFor: "MULTIHEAD_PID=")
        let server = try #require(lines.first { $0.hasPrefix("MULTIHEAD_PID=") }.flatMap { Int32($0.dropFirst(14)) }, "\(lines)")
        let x = try #require(lines.first { $0.hasPrefix("PID=") }.flatMap { Int32($0.dropFirst(4)) })
        parent.terminate(grace: 0, signal: SIGKILL)
        #expect(await ended(server), "multihead server outlived its parent")
        #expect(await ended(x), "its X server outlived it")
        #expect(sessionDirectories(of: server).isEmpty)
    }

    @Test("--outlive-parent: the server stays after its parent is killed, and stops on SIGTERM")
    func serverOutlivesParentWhenAsked() async throws {
        let output = NSTemporaryDirectory() + "mh-test-server-\(UUID().uuidString.prefix(8))"
        defer { unlink(output) }
        let parent = try serverUnderParent(["--monitors", "800x600", "--outlive-parent"], output: output)
        let lines = await lines(of: output, waitingFor: "MULTIHEAD_PID=")
        let server = try #require(lines.first { $0.hasPrefix("MULTIHEAD_PID=") }.flatMap { Int32($0.dropFirst(14)) }, "\(lines)")
        defer { kill(server, SIGTERM) }
        parent.terminate(grace: 0, signal: SIGKILL)
        let environment = Dictionary(uniqueKeysWithValues: lines.compactMap { line -> (String, String)? in
            guard let eq = line.firstIndex(of: "="), ["DISPLAY", "XAUTHORITY"].contains(String(line[..<eq])) else { return nil }
            return (String(line[..<eq]), String(line[line.index(after: eq)...]))
        })
        let plug = try await multihead(["plug", "EXT", "640x480+800+0"], environment: environment)
        let screens = try await multihead(["screens"], environment: environment)
        #expect(plug.status == 0 && screens.stdout.contains("EXT"), "\(plug.stderr) \(screens.stderr)")
        #expect(!ProcessControl.hasEnded(server))
        kill(server, SIGTERM)
        #expect(await ended(server))
        #expect(sessionDirectories(of: server).isEmpty)
    }
}
