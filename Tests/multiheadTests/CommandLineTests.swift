import Foundation
import Multihead
import MultiheadControl
import MultiheadTesting
import Testing

/// Runs the built `multihead` binary and captures what it prints.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
    /// From the start of the process to its exit.
    var elapsed: Duration = .zero
    /// How long the start waited for the spawn thread, which other tests' children share: not the
    /// command's own time, so not in `elapsed`.
    var queued: Duration = .zero
    /// The process's ID (setpriv ran the binary in its own place).
    var pid: Int32 = 0
}

/// Runs the binary off the main actor: the tests share it, and a blocked main actor stalls the others.
func multihead(_ args: [String], environment: [String: String] = [:], unsetDisplay: Bool = true) async throws -> CommandResult {
    try await onOwnThread { try runMultihead(args, environment: environment, unsetDisplay: unsetDisplay) }
}

/// One request to a control socket on a connection of its own, off the main actor; its answer.
func controlRequest(_ path: String, _ request: String) async throws -> JSONValue {
    try await onOwnThread {
        let lines = ControlLines(try ControlSocket.connect(to: path, timeout: 30))
        defer { lines.close() }
        guard lines.write(Array(request.utf8)), case .line(let answer) = lines.next(), let v = JSONValue.parse(answer) else {
            throw CommandFailure(status: 70, code: "test", message: "no answer to \(request)")
        }
        return v
    }
}

/// The built binary, run through `setpriv --pdeathsig TERM`: a child of the test process ends with it,
/// however the test process ends.
func multiheadCommand(_ args: [String]) -> (URL, [String]) {
    let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("multihead")
    return (URL(fileURLWithPath: "/usr/bin/setpriv"), ["--pdeathsig", "TERM", "--", bin.path] + args)
}

/// Starts a process from the kit's spawn thread, which lives as long as the test process: the parent-death
/// signal belongs to the spawning thread, and the thread an async test runs on may end first.
func launch(_ p: Process) throws {
    try SpawnThread.shared.run { Result { try p.run() } }.get()
}

/// Starts the built binary with the server's environment; its stdout (and stderr, if asked) on pipes.
func launchMultihead(_ args: [String], environment: [String: String], stderr: Pipe? = nil) throws -> (Process, Pipe) {
    let p = Process()
    (p.executableURL, p.arguments) = multiheadCommand(args)
    p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe()
    p.standardOutput = out
    if let stderr { p.standardError = stderr }
    try launch(p)
    return (p, out)
}

/// Reads a child's pipe line by line, off the main actor: tests wait for what a child says, not for time.
final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var buffer = Data()
    private let lock = NSLock()

    init(_ pipe: Pipe) { handle = pipe.fileHandleForReading }

    /// The next whole line, or nil at end of file.
    func nextLine() async -> String? {
        await onOwnThread { self.readLine() }
    }

    /// What `multihead server` prints first: its `NAME=value` lines up to `MULTIHEAD_PID=` (its last), or
    /// those read before the end of file.
    func serverAssignments() async -> [String: String] {
        var values: [String: String] = [:]
        while values["MULTIHEAD_PID"] == nil, let line = await nextLine() {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        return values
    }

    /// Reads lines until one contains `text`; false at end of file.
    func waitFor(_ text: String) async -> Bool {
        while let line = await nextLine() { if line.contains(text) { return true } }
        return false
    }

    private func readLine() -> String? {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...nl)
                return line
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }
}

/// Waits for a child's output and exit off the main actor.
func finish(_ p: Process, reading pipe: Pipe) async -> Data {
    await onOwnThread {
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return data
    }
}

private func runMultihead(_ args: [String], environment: [String: String], unsetDisplay: Bool) throws -> CommandResult {
    let p = Process()
    (p.executableURL, p.arguments) = multiheadCommand(args)
    var env = ProcessInfo.processInfo.environment
    if unsetDisplay { env["DISPLAY"] = nil }
    for (k, v) in environment { env[k] = v }
    p.environment = env
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    let clock = ContinuousClock()
    let asked = clock.now
    try launch(p)
    let start = clock.now
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    // The child has ended when both pipes are at their end; Foundation's own note of the exit (its
    // manager thread, which every test's children share) may come later.
    let end = clock.now
    p.waitUntilExit()
    return CommandResult(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                         stderr: String(decoding: e, as: UTF8.self), elapsed: end - start, queued: start - asked,
                         pid: p.processIdentifier)
}

@MainActor
@Suite("The multihead command, as a built binary", .timeLimit(.minutes(3)))
struct CommandLineTests {
    @Test("screens --json prints the contract's shape, main first")
    func screensJSON() async throws {
        let server = try await VirtualServer.start(monitors: [
            .init("EXT-1", "1280x720+1920+0"), .init("MAIN", "1920x1080+0+0", primary: true),
        ])
        defer { server.stop() }
        let r = try await multihead(["screens", "--json"], environment: server.environment)
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(json.map { $0["name"] as? String } == ["MAIN", "EXT-1"])
        #expect(json.map { $0["main"] as? Bool } == [true, false])
        let ext = json[1]
        #expect(ext["frame"] as? [String: Int] == ["x": 1920, "y": 0, "width": 1280, "height": 720])
        #expect(ext["physicalSize"] as? [String: Int] == ["width": 339, "height": 191])
        #expect(ext["scale"] as? Double == 1)
        // A virtual monitor has no EDID: the keys are there, null.
        #expect(["manufacturer", "model", "serialNumber"].allSatisfy { ext[$0] is NSNull })
        let mode = try #require(ext["currentMode"] as? [String: Any])
        #expect(mode["width"] as? Int == 1280 && mode["height"] as? Int == 720 && mode["refreshRate"] as? Double == 0)
        #expect((ext["modes"] as? [[String: Any]])?.count == 1)
    }

    @Test("screens prints a table for people")
    func screensTable() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let r = try await multihead(["screens"], environment: server.environment)
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("NAME") == true)
        #expect(lines.count == 2)
        #expect(lines[1].contains("MAIN") && lines[1].contains("*") && lines[1].contains("1920x1080+0+0"))
    }

    @Test("watch prints one JSON line per event and exits after --count")
    func watchCount() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let err = Pipe()
        let (p, out) = try launchMultihead(["watch", "--json", "--count", "2", "--timeout", "20"], environment: server.environment, stderr: err)
        #expect(await LineReader(err).waitFor("watching"))
        try server.plug("EXT-9", "640x480+1920+0")
        // A plug and an unplug between two reads of the server are not reported: wait for the first line.
        let stdout = LineReader(out)
        var lines: [String] = []
        if let first = await stdout.nextLine() { lines.append(first) }
        try server.unplug("EXT-9")
        while let line = await stdout.nextLine() { lines.append(line) }
        await exited(p)
        #expect(p.terminationStatus == 0)
        #expect(lines.count == 2)
        let events = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.map { $0?["event"] as? String } == ["connect", "disconnect"])
        #expect(events.map { ($0?["screen"] as? [String: Any])?["name"] as? String } == ["EXT-9", "EXT-9"])
    }

    @Test("watch --ready: a first line for programs once watching (not counted by --count), then the events")
    func watchReady() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let (p, out) = try launchMultihead(["watch", "--json", "--ready", "--count", "1", "--timeout", "20"], environment: server.environment,
                                           stderr: Pipe())
        let stdout = LineReader(out)
        let first = await stdout.nextLine()
        #expect(first?.hasPrefix(#"{"event":"ready","screenCount":1,"configurationSerial":"#) == true, "\(first ?? "")")
        try server.plug("EXT-8", "640x480+1920+0")
        let event = await stdout.nextLine()
        #expect(event?.contains(#""event":"connect""#) == true, "\(event ?? "")")
        #expect(await stdout.nextLine() == nil)
        await exited(p)
        #expect(p.terminationStatus == 0)
    }

    @Test("watch keeps up: 300 plugs and unplugs, each waiting for its line, give 300 lines in order")
    func watchKeepsUp() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let err = Pipe()
        let (watch, out) = try launchMultihead(["watch", "--json", "--timeout", "120"], environment: server.environment, stderr: err)
        #expect(await LineReader(err).waitFor("watching"))
        // The plugging runs in a process of its own (the C baseline's plug loop), reading watch's lines from a
        // pipe: 300 round trips on this test's main actor would stall every other test. Events the watcher
        // took off the socket while waiting for a reply must still be handled: a missed one leaves a line
        // unwritten, and the loop waits for it (until --timeout ends watch).
        let loop = Process()
        let baseline = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("XlibBaseline")
        (loop.executableURL, loop.arguments) = (URL(fileURLWithPath: "/usr/bin/setpriv"), ["--pdeathsig", "TERM", "--", baseline.path, "plugloop", "300"])
        loop.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }
        loop.standardInput = out
        let said = Pipe()
        loop.standardOutput = said
        try launch(loop)
        let verdict = await LineReader(said).nextLine()
        await exited(loop)
        watch.terminate()
        await exited(watch)
        #expect(verdict == "all ok 300")
        #expect(loop.terminationStatus == 0)
    }

    @Test("watch exits 69 by itself when the server goes away: the loss, not the 5 s bound")
    func watchServerGone() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "800x600+0+0", primary: true)])
        let err = Pipe()
        let (p, _) = try launchMultihead(["watch"], environment: server.environment, stderr: err)
        let reader = LineReader(err)
        #expect(await reader.waitFor("watching"))
        server.stop()
        // Watch notices the hang-up on its connection: "went away", not the watchdog's "not responding"
        // (which would mean it waited out its bound). No clock here: the suite runs under load.
        var lines: [String] = []
        while let line = await reader.nextLine() { lines.append(line) }
        await exited(p)
        #expect(p.terminationStatus == 69)
        #expect(lines.contains { $0.contains("went away") } && !lines.contains { $0.contains("not responding") }, "\(lines)")
    }

    @Test("watch ends (141, quietly) when its reader leaves, with SIGPIPE ignored and no event coming", arguments: [false, true])
    func watchReaderGone(json: Bool) async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "800x600+0+0", primary: true)])
        defer { server.stop() }
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("multihead").path
        // A supervisor that ignores SIGPIPE, as many do: the ignore is inherited across exec.
        let child = try ChildProcess.spawn("/bin/sh", ["-c", "trap '' PIPE; exec \"$0\" watch \"$@\"", bin] + (json ? ["--json"] : []),
                                           environment: server.environment, diesWithParent: true)
        // Its first line on stderr says it is watching; then the reader of its stdout goes away.
        let ready = await onOwnThread { () -> String in
            var bytes: [UInt8] = [], b: UInt8 = 0
            while read(child.stderr, &b, 1) == 1, b != UInt8(ascii: "\n") { bytes.append(b) }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(ready.contains("watching"))
        close(child.stdout)
        let status = await onOwnThread { () -> Int32 in
            var status: Int32 = 0
            while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
            return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        }
        let rest = await onOwnThread { () -> Int in
            var buf = [UInt8](repeating: 0, count: 4096), total = 0
            while case let n = read(child.stderr, &buf, buf.count), n > 0 { total += n }
            return total
        }
        close(child.stderr)
        #expect(status == 141)
        #expect(rest == 0, "nothing more on stderr: nobody is there to read it")
    }

    @Test("no DISPLAY exits 69 naming the problem; an unreachable one exits 69 naming it")
    func noServer() async throws {
        let r = try await multihead(["screens"])
        #expect(r.status == 69)
        #expect(r.stderr.contains("DISPLAY is not set"))
        let r2 = try await multihead(["screens", "--display", ":977"])
        #expect(r2.status == 69)
        #expect(r2.stderr.contains("\":977\""))
        #expect(!r2.stderr.contains("Fatal") && !r2.stderr.contains("Stack"))
    }

    @Test("--help after any command prints that command's help and exits 0, starting nothing; run -- CMD --help is CMD's")
    func helpAfterAnyCommand() async throws {
        for command in ["run", "screens", "watch", "demo", "plug", "unplug", "mode", "screenshot", "server", "doctor"] {
            for flag in ["--help", "-h"] {
                let r = try await multihead([command, flag])
                #expect(r.status == 0, "\(command) \(flag): \(r.status) \(r.stderr)")
                #expect(r.stdout.contains("USAGE: multihead \(command)"), "\(command) \(flag): \(r.stdout) \(r.stderr)")
            }
        }
        // Inside run (the socket's fast path for plug): still the parser's help, not a request.
        let forwarded = try await multihead(["plug", "--help"], environment: ["MULTIHEAD_CONTROL": "/nonexistent/control.sock"])
        #expect(forwarded.status == 0 && forwarded.stdout.contains("USAGE: multihead plug"), "\(forwarded.stderr)")
        let withOptions = try await multihead(["run", "--xvfb", "--help"])
        #expect(withOptions.status == 0 && withOptions.stdout.contains("USAGE: multihead run"), "\(withOptions.stderr)")
        let passed = try await multihead(["run", "--xvfb", "--", "/bin/sh", "-c", "echo \"$1\"", "sh", "--help"])
        #expect(passed.status == 0 && passed.stdout == "--help\n", "\(passed.stdout) \(passed.stderr)")
    }

    @Test("bad flags and arguments exit 64 with the reason")
    func badUsage() async throws {
        for args in [["watch", "--count", "0"], ["watch", "--timeout", "nan"], ["screens", "--bogus"],
                     ["plug", "X", "not-a-geometry"], ["server", "--monitors", "0x0"], ["nonsense"]] {
            let r = try await multihead(args)
            #expect(r.status == 64, "\(args): \(r.status) \(r.stderr)")
            #expect(!r.stderr.isEmpty)
        }
        // The kinds' flags exclude each other, before any server starts.
        for (args, named) in [(["server", "--xvfb", "--xorg"], "--xvfb and --xorg"),
                              (["run", "--xorg", "--xorg-dummy", "--", "true"], "--xorg and --xorg-dummy"),
                              (["server", "--xvfb", "--xorg-dummy", "--xorg"], "--xvfb and --xorg and --xorg-dummy")] {
            let r = try await multihead(args)
            #expect(r.status == 64, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains(named) && r.stderr.contains("pick one"), "\(args): \(r.stderr)")
        }
    }

    @Test("plug and unplug change a private server; mistakes exit 64")
    func plugUnplug() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "800x600+0+0", primary: true)])
        defer { server.stop() }
        #expect(try await multihead(["plug", "EXT-1", "640x480+800+0"], environment: server.environment).status == 0)
        let app = try server.makeApplication()
        #expect(app.screens.map(\.name) == ["MAIN", "EXT-1"])
        #expect(try await multihead(["unplug", "EXT-1"], environment: server.environment).status == 0)
        #expect(await app.run(until: { app.screens.count == 1 }))
        let missing = try await multihead(["unplug", "NOPE"], environment: server.environment)
        #expect(missing.status == 64 && missing.stderr.contains("NOPE"))
        let output = try await multihead(["plug", "screen", "10x10+0+0"], environment: server.environment)
        #expect(output.status == 64)
        let huge = try await multihead(["plug", "BIG", "100000x10+0+0"], environment: server.environment)
        #expect(huge.status == 64)
        // A virtual monitor has no refresh rate: asking for one is a mistake, not something to ignore.
        for args in [["plug", "EXT-2", "640x480+800+0", "--rate", "60"], ["mode", "MAIN", "640x480", "--rate", "75"]] {
            let rated = try await multihead(args, environment: server.environment)
            #expect(rated.status == 64 && rated.stderr.contains("no refresh rate"), "\(args): \(rated.stderr)")
        }
        #expect(app.screens.map(\.name) == ["MAIN"])
        #expect(app.screens.first?.currentMode?.size == Size(width: 800, height: 600))
    }
}
