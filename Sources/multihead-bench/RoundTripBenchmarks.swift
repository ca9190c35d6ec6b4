import Foundation
import Glibc
import Multihead
import MultiheadTesting
import MultiheadX11

/// A child process with pipes on its stdout and stderr, read line by line.
final class Child {
    let pid: pid_t
    private let out: Int32, err: Int32
    private var pending: [UInt8] = []

    /// Starts `argv` with `environment` added to ours; nil when it cannot start.
    init?(_ argv: [String], environment: [String: String]) {
        var o: [Int32] = [0, 0], e: [Int32] = [0, 0]
        guard pipe(&o) == 0, pipe(&e) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, o[1], 1)
        posix_spawn_file_actions_adddup2(&actions, e[1], 2)
        posix_spawn_file_actions_addclose(&actions, o[0])
        posix_spawn_file_actions_addclose(&actions, e[0])
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        // This thread may block signals (the main actor runs on a dispatch worker): the child starts with none
        // blocked, so that SIGTERM ends it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let status = withCStrings(argv) { a in withCStrings(env) { v in posix_spawnp(&pid, argv[0], &actions, &attributes, a, v) } }
        close(o[1]); close(e[1])
        guard status == 0 else { close(o[0]); close(e[0]); return nil }
        self.pid = pid
        out = o[0]
        err = e[0]
    }

    /// The next line on stdout (blocking), nil at its end.
    func stdoutLine() -> String? { line(out) }

    /// Reads stderr until a line containing `text` (blocking); false at its end.
    func waitOnStderr(for text: String) -> Bool {
        while let l = line(err) { if l.contains(text) { pending = []; return true } }
        return false
    }

    private func line(_ fd: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let nl = pending.firstIndex(of: 10) {
                let l = String(decoding: pending[..<nl], as: UTF8.self)
                pending.removeSubrange(...nl)
                return l
            }
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return nil }
            pending += buffer[..<n]
        }
    }

    /// Ends the child (SIGTERM) and waits for it.
    func stop() {
        kill(pid, SIGTERM)
        ProcessControl.reap(pid)
        close(out); close(err)
    }
}

func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}

/// A virtual monitor plugged (or unplugged) by another connection until the watcher's line arrives: the
/// `multihead watch --json` process against the raw Xlib listener (`XlibBaseline listen`), timed alike.
@MainActor
func benchWatchLine(_ server: VirtualServer, cli: String) throws {
    let n = 400
    func run(_ argv: [String], ready: String) throws -> Double {
        guard let child = Child(argv, environment: server.environment), child.waitOnStderr(for: ready) else {
            throw VirtualServerError.didNotStart(binary: argv[0], log: "no \"\(ready)\" line")
        }
        defer { child.stop() }
        let control = try ServerControl(display: server.display)
        defer { control.close() }
        var t: [Double] = []
        for i in 0..<n {
            t.append(try micros {
                if i % 2 == 0 {
                    try control.addMonitor(name: "BENCH-W", frame: Rect(x: 7000, y: 0, width: 640, height: 480), primary: false)
                } else {
                    try control.deleteMonitor(name: "BENCH-W")
                }
                guard child.stdoutLine() != nil else { throw VirtualServerError.didNotStart(binary: argv[0], log: "ended") }
            })
        }
        return median(t)
    }
    let swift = try run([cli, "watch", "--json"], ready: "watching")
    let c = try run([baselinePath(), "listen"], ready: "listening")
    row("virtual monitor plug → watch --json line (Xvfb) vs raw Xlib listener, median of \(n)", swift, c)
}

/// `Application.refreshScreens()` on Xorg+dummy (16 outputs, 8 active) against C reading the same one
/// request at a time (Xlib) and pipelined (XCB): with each output's EDID property, as the Swift side reads
/// it (the same server work), and without, the row as it was first written. Each row in lock step, read for
/// read: this machine's speed drifts within a run, and all of one side's reads before the other's met two
/// machines (the XCB row's ratio moved from 0.7× to 1.9× between runs).
@MainActor
func benchFullRead(n: Int = 2000) async throws {
    let monitors = (0..<8).map { VirtualServer.Monitor("DUMMY\($0)", "800x600+\($0 * 800)+0", primary: $0 == 0) }
    let server = try await VirtualServer.start(.xorgDummy, monitors: monitors)
    defer { server.stop() }
    // The backend made here, not read back from the application: its RandR tally is what the rows name.
    let x11 = X11Backend(display: server.display)
    let app = try Application(backend: x11)
    let before = x11.randrTally
    try app.refreshScreens()
    let cost = x11.randrTally - before
    func stepped(_ mode: String) throws -> (swift: Double, c: Double) {
        let running = swiftOnly ? nil : try RunningBaseline([mode, "\(n)"], environment: server.environment.merging(
            ["MULTIHEAD_BASELINE_STEPPED": "1"]) { $1 })
        try running?.waitUntilReady()
        var swift: [Double] = [], c: [Double] = []
        for _ in 0..<n {
            swift.append(try micros { try app.refreshScreens() })
            c.append(try running?.step() ?? 0)
        }
        _ = try running?.median()
        return (median(swift), median(c))
    }
    let xlib = try stepped("enumerate")
    row("full re-read, Xorg+dummy 16 outputs, 8 active, vs Xlib one request at a time, median of \(n), lock step", xlib.swift, xlib.c)
    let edid = try stepped("enumerate-xcb-edid")
    row("same, vs XCB pipelined with each output's EDID, as the Swift side (\(cost.roundTrips) round trips, "
        + "\(cost.requests) requests), median of \(n), lock step", edid.swift, edid.c)
    let bare = try stepped("enumerate-xcb")
    row("same, vs XCB pipelined without the EDIDs (2 round trips, 16 requests fewer), median of \(n), lock step", bare.swift, bare.c)
}

/// The whole `multihead screens --json` process against `xrandr --listmonitors`: wall time from spawn to
/// exit, and peak resident memory (`ru_maxrss` of a forked child, measured by the C baseline's `maxrss`).
/// `named`: the command as the row names it (`multihead`, or a path such as the .deb's /usr/bin/multihead).
@MainActor
func benchCLI(_ server: VirtualServer, cli: String, named: String = "multihead") throws {
    let n = 100
    let env = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }.map { "\($0)=\($1)" }
    func spawnAndWait(_ argv: [String]) throws -> String {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw VirtualServerError.systemCall("pipe", reason: String(cString: strerror(errno))) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        var pid: pid_t = 0
        let rc = withCStrings(argv) { a in withCStrings(env) { v in posix_spawnp(&pid, argv[0], &actions, nil, a, v) } }
        close(fds[1])
        defer { close(fds[0]) }
        guard rc == 0 else { throw VirtualServerError.didNotStart(binary: argv[0], log: "posix_spawn: \(rc)") }
        var output: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = read(fds[0], &buffer, buffer.count)
            if got <= 0 { break }
            output += buffer[..<got]
        }
        let status = ProcessControl.reap(pid) ?? -1
        guard status == 0 else { throw VirtualServerError.didNotStart(binary: argv[0], log: "exit status \(status)") }
        return String(decoding: output, as: UTF8.self)
    }
    func rss(_ argv: [String]) throws -> Double {
        let line = try spawnAndWait([baselinePath(), "maxrss"] + argv)
        guard let kb = line.split(separator: " ").first(where: { $0.hasPrefix("maxrss_kb=") }).flatMap({ Double($0.dropFirst(10)) }),
              line.contains("status=0") else { throw VirtualServerError.didNotStart(binary: argv[0], log: line) }
        return kb / 1024
    }
    // Alternately, one of each in turn: this machine's speed drifts within a minute, and two blocks of
    // runs would each see a different machine.
    let ours = [cli, "screens", "--json"], theirs = ["xrandr", "--listmonitors"]
    var t: (swift: [Double], c: [Double]) = ([], []), m: (swift: [Double], c: [Double]) = ([], [])
    for _ in 0..<n {
        t.swift.append(try micros { _ = try spawnAndWait(ours) })
        t.c.append(try micros { _ = try spawnAndWait(theirs) })
    }
    for _ in 0..<10 {
        m.swift.append(try rss(ours))
        m.c.append(try rss(theirs))
    }
    let swift = (ms: median(t.swift) / 1000, rssMB: median(m.swift)), c = (ms: median(t.c) / 1000, rssMB: median(m.c))
    row("`\(named) screens --json` vs `xrandr --listmonitors`, whole process, median of \(n)", swift.ms, c.ms, unit: "ms")
    row("same, peak resident memory, median of 10" + (named == "multihead" ? "" : " (\(named))"), swift.rssMB, c.rssMB, unit: "MB")
}
