import Foundation
import Multihead
import MultiheadTesting
import Testing

/// Whether a process has ended (gone, or a zombie nobody reaped yet).
func hasEnded(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return true }
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
}

/// Waits (bounded) for a process to end, checking the fact every few milliseconds.
func waitUntilEnded(_ pid: Int32, within seconds: Double = 10) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if hasEnded(pid) { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return hasEnded(pid)
}

/// Waits for a child's exit off the main actor (the tests share it).
func exited(_ p: Process) async {
    await onOwnThread { p.waitUntilExit() }
}

/// The PIDs whose parent is `pid` (`/proc/*/stat`).
func children(of pid: Int32) -> [Int32] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap { Int32($0) }.filter { child in
        guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
              let after = stat.split(separator: ")").last?.split(separator: " "), after.count > 1 else { return false }
        return Int32(after[1]) == pid   // " S PPID …" after the command's ")"
    }
}

/// Session directories of a process in the temporary directory.
func sessionDirectories(of pid: Int32) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []).filter { $0.hasPrefix("multihead-\(pid)-") }
}

@MainActor
@Suite("The harness leaves nothing behind, never hangs, never loses a file", .timeLimit(.minutes(2)))
struct ReliabilityTests {
    @Test("server ended by SIGKILL, SIGTERM or SIGINT: its X server ends too", arguments: [Int32(9), 15, 2])  // SIGKILL, SIGTERM, SIGINT
    func serverDiesWithItsOwner(signal: Int32) async throws {
        let (p, out) = try launchMultihead(["server", "--monitors", "640x480"], environment: [:])
        let reader = LineReader(out)
        var xPID: Int32 = 0
        while let line = await reader.nextLine() {
            if line.hasPrefix("PID=") { xPID = Int32(line.dropFirst(4)) ?? 0; break }
        }
        try #require(xPID > 0)
        kill(p.processIdentifier, signal)
        await exited(p)
        #expect(p.terminationStatus == (signal == SIGKILL ? SIGKILL : 128 + signal) || p.terminationReason == .uncaughtSignal)
        #expect(await waitUntilEnded(xPID))
        if signal == SIGKILL {
            // Nothing of the dead process could remove its directory: the next cold start sweeps it (a warm
            // one sweeps only when the temporary folder changed since the last sweep).
            let next = try await VirtualServer.start(fresh: true)
            next.stop()
        }
        #expect(sessionDirectories(of: p.processIdentifier).isEmpty)
    }

    @Test("server's life is its X server's: PID= is the server itself, and its end ends the command (69) and its files",
          arguments: ["--xvfb", "--xorg-dummy", "--xorg"])
    func serverEndsWithItsXServer(kind: String) async throws {
        let err = Pipe()
        let xorg = kind != "--xvfb"
        let (p, out) = try launchMultihead(["server", "--monitors", "640x480", kind], environment: [:], stderr: err)
        let values = await LineReader(out).serverAssignments()
        let xPID = try #require(values["PID"].flatMap { Int32($0) })
        // setpriv runs the command in its own place: MULTIHEAD_PID is the process we started.
        #expect(values["MULTIHEAD_PID"] == String(p.processIdentifier))
        let comm = (try? String(contentsOfFile: "/proc/\(xPID)/comm", encoding: .utf8)) ?? ""
        #expect(comm.trimmingCharacters(in: .whitespacesAndNewlines) == (xorg ? "Xorg" : "Xvfb"))
        kill(xPID, SIGKILL)
        let message = await onOwnThread { err.fileHandleForReading.readDataToEndOfFile() }
        await exited(p)
        #expect(p.terminationStatus == 69)
        #expect(String(decoding: message, as: UTF8.self).contains("was ended by signal 9"))
        #expect(sessionDirectories(of: p.processIdentifier).isEmpty)
        #expect(hasEnded(xPID))
    }

    @Test("demo --headless ended by SIGINT, SIGTERM or SIGKILL: its X server ends too", arguments: [Int32(2), 15, 9])  // SIGINT, SIGTERM, SIGKILL
    func demoDiesWithItsServer(signal: Int32) async throws {
        let dir = NSTemporaryDirectory() + "mh-test-demo-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (p, out) = try launchMultihead(["demo", "--headless", "--stay", "--output-directory", dir], environment: [:])
        #expect(await LineReader(out).waitFor("staying up"))
        let servers = children(of: p.processIdentifier)
        try #require(!servers.isEmpty)
        kill(p.processIdentifier, signal)
        await exited(p)
        for s in servers { #expect(await waitUntilEnded(s), "server \(s)") }
        if signal == SIGKILL {
            // Nothing of the dead process could remove its directory: the next cold start sweeps it (a warm
            // one sweeps only when the temporary folder changed since the last sweep).
            let next = try await VirtualServer.start(fresh: true)
            next.stop()
        }
        #expect(sessionDirectories(of: p.processIdentifier).isEmpty)
    }

    @Test("a stopped server: screens, plug, screenshot and watch --timeout 2 exit 69 saying it is not responding")
    func frozenServer() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)])
        defer { kill(server.pid, SIGCONT); server.stop() }
        let env = server.environment
        kill(server.pid, SIGSTOP)
        async let screens = multihead(["screens"], environment: env)
        async let plug = multihead(["plug", "X", "100x100+0+0"], environment: env)
        async let shot = multihead(["screenshot", "-o", NSTemporaryDirectory() + "mh-test-\(UUID().uuidString).png"], environment: env)
        async let watch = multihead(["watch", "--timeout", "2"], environment: env)
        let w = try await watch, s = try await screens
        let bounded = [s, try await plug, try await shot]
        for r in bounded + [w] {
            #expect(r.status == 69, "\(r.stderr)")
            #expect(r.stderr.contains("X server at \(server.display) is not responding"), "\(r.stderr)")
        }
        // Bounded by 5 s, never for ever: each ends within seconds of `watch --timeout 2` started at the same
        // moment, which a loaded machine or a sanitizer slows alike (a bound in seconds alone failed under
        // ThreadSanitizer on a loaded machine: 10.3 s against 9). Four debug processes started at once under
        // the whole suite do not start alike, though: 3 s over watch's own 3 s failed once (9.9 s against
        // 9.3), so 10 s over it; a command that waited for its answer for ever would still fail here.
        for r in bounded {
            #expect(r.elapsed < w.elapsed + .seconds(13), "\(r.elapsed) (queued \(r.queued)), watch \(w.elapsed) (queued \(w.queued)): \(r.stderr)")
        }
        // --timeout 2 counts from the start, connecting included: watch gives up before the others' 5 s bound
        // (compared with a command started at the same moment, so that a slow machine slows both).
        #expect(w.elapsed < s.elapsed, "watch \(w.elapsed), screens \(s.elapsed)")
    }

    @Test("a failed screenshot leaves the existing file as it was")
    func screenshotLosesNothing() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)], framebuffer: Size(width: 1024, height: 768))
        defer { server.stop() }
        _ = try await server.xrandr(["--setmonitor", "OUT", "100/26x100/26+5000+0", "none"])
        // A folder of its own: other tests write (and remove) temporary PNGs in the temporary folder meanwhile.
        let dir = NSTemporaryDirectory() + "mh-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/screen.png"
        let before = Data("precious".utf8)
        try before.write(to: URL(fileURLWithPath: file))
        let r = try await multihead(["screenshot", "--screen", "OUT", "-o", file], environment: server.environment)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["screen.png"])
    }

    @Test("parallel plug and unplug of one name end 0, or 64 with \"not plugged\", never 70")
    func plugUnplugAreAtomic() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)])
        defer { server.stop() }
        let env = server.environment
        var results: [CommandResult] = []
        for _ in 0..<5 {
            results += try await withThrowingTaskGroup(of: CommandResult.self) { group in
                for i in 0..<16 {
                    group.addTask { try await multihead(i % 2 == 0 ? ["plug", "R", "100x100+640+0"] : ["unplug", "R"], environment: env) }
                }
                var round: [CommandResult] = []
                for try await r in group { round.append(r) }
                return round
            }
        }
        for r in results {
            #expect(r.status == 0 || (r.status == 64 && r.stderr.contains("not plugged")), "\(r.status) \(r.stderr)")
        }
        #expect(results.contains { $0.status == 0 })
    }

    @Test("plug, unplug and mode on a server without RandR exit 69 with the reason, even with --force")
    func noRandR() async throws {
        let server = try await VirtualServer.start(monitors: [], serverArguments: ["-extension", "RANDR"])
        defer { server.stop() }
        for args in [["plug", "X", "100x100+0+0", "--force"], ["unplug", "X", "--force"], ["mode", "X", "800x600", "--force"]] {
            let r = try await multihead(args, environment: server.environment)
            #expect(r.status == 69, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("RandR"), "\(r.stderr)")
        }
    }

    @Test("names with control characters are escaped in tables and messages")
    func escapedNames() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)])
        defer { server.stop() }
        _ = try await server.xrandr(["--setmonitor", "EVIL\u{1b}[31m\nFAKE", "100/26x100/26+640+0", "none"])
        let r = try await multihead(["screens"], environment: server.environment)
        #expect(r.status == 0)
        #expect(!r.stdout.contains("\u{1b}"))
        #expect(r.stdout.contains("EVIL\\e[31m\\nFAKE"), "\(r.stdout)")
        #expect(r.stdout.split(separator: "\n").count == 3)
        let missing = try await multihead(["unplug", "NO\u{1b}PE"], environment: server.environment)
        #expect(missing.status == 64 && missing.stderr.contains("NO\\ePE") && !missing.stderr.contains("\u{1b}"))
    }

    @Test("numbers are decimal, negatives say ≥ 0, long names and frames past the largest screen are 64")
    func badNumbersAndNames() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)])
        defer { server.stop() }
        let env = server.environment
        let cases: [([String], String)] = [
            (["plug", "X", "100x100+0x1A+0"], "geometry"), (["watch", "--timeout", "0x10"], "timeout"),
            (["watch", "--count", "-1"], "must be ≥ 0"), (["watch", "--timeout", "-3"], "must be ≥ 0"),
            (["mode", "MAIN", "800x600", "--rate", "-5"], "must be ≥ 0"),
            (["plug", String(repeating: "N", count: 70_000), "100x100+0+0"], "at most 255 bytes"),
            (["plug", "X", "40000x100+0+0"], "largest"), (["plug", "X", "1000x1000+8000+0"], "largest"),
            (["mode", "screen", "800x600"], "screen"),
        ]
        for (args, reason) in cases {
            let r = try await multihead(args, environment: env)
            #expect(r.status == 64, "\(args.map { $0.prefix(20) }): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains(reason), "\(r.stderr.prefix(300))")
            #expect(r.stderr.utf8.count < 1000)
        }
    }

    @Test("plug changes a server the kit did not start only with --force")
    func forceGuard() async throws {
        let xvfb = Process()
        // Through setpriv from the spawn thread, like every child of the tests: it ends with the test process.
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        xvfb.arguments = ["--pdeathsig", "TERM", "--", "/usr/bin/Xvfb", "-displayfd", "1", "-noreset", "-nolisten", "tcp",
                          "-screen", "0", "1024x768x24"]
        let out = Pipe()
        xvfb.standardOutput = out
        xvfb.standardError = FileHandle.nullDevice
        try launch(xvfb)
        // Foundation's Process passes on the runtime's blocked signals: SIGKILL ends it whatever its mask.
        func check() async throws {
            let number = try #require(await LineReader(out).nextLine())
            let env = ["DISPLAY": ":\(number)"]
            let refused = try await multihead(["plug", "X", "100x100+0+0"], environment: env)
            #expect(refused.status == 64 && refused.stderr.contains("--force"), "\(refused.stderr)")
            let forced = try await multihead(["plug", "X", "100x100+0+0", "--force"], environment: env)
            #expect(forced.status == 0, "\(forced.stderr)")
        }
        var failure: (any Error)?
        do { try await check() } catch { failure = error }
        kill(xvfb.processIdentifier, SIGKILL)
        await exited(xvfb)
        if let failure { throw failure }
    }
}
