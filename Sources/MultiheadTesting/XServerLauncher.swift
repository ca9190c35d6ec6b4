#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead

/// Starts X servers on a free display: `-displayfd` makes the server pick the display and write its
/// number once it accepts connections.
@MainActor
enum XServerLauncher {
    /// This process's authority file: every private server adds its cookie here, and `XAUTHORITY` points
    /// at it (Xlib reads the variable at every `XOpenDisplay`), so tests never use the desktop's cookies.
    nonisolated static var authorityFile: String { ServerRegistry.directoryPath + "/Xauthority" }
    private static var environmentSet = false

    /// The full path of a binary on PATH, if installed.
    nonisolated static func which(_ binary: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        // PATH first, as a shell searches it (an empty entry is the current directory).
        let dirs = path.split(separator: ":", omittingEmptySubsequences: false).map { $0.isEmpty ? "." : String($0) }
        for dir in dirs + ["/usr/bin", "/usr/local/bin"] {
            let p = "\(dir)/\(binary)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    /// How many servers this process starts at once: a suite runs its tests side by side, and eighty X
    /// servers initialising together on two cores take longer than the start's bound. Waiting here is not
    /// counted against it.
    static let concurrentStarts = 2
    private static var starting = 0
    private static var waiting: [CheckedContinuation<Void, Never>] = []

    static func launch(_ implementation: any ServerKindImplementation, binary: String, package: String, arguments: [String],
                       framebuffer: Size) async throws -> VirtualServer {
        if starting >= concurrentStarts { await withCheckedContinuation { waiting.append($0) } } else { starting += 1 }
        defer {
            // The slot passes to the next waiter, or is freed.
            if waiting.isEmpty { starting -= 1 } else { waiting.removeFirst().resume() }
        }
        return try await launchNow(implementation, binary: binary, package: package, arguments: arguments, framebuffer: framebuffer)
    }

    private static func launchNow(_ implementation: any ServerKindImplementation, binary: String, package: String, arguments: [String],
                                  framebuffer: Size) async throws -> VirtualServer {
        // Xorg: the server binary itself, not Debian's wrapper (`XorgInstallation.serverBinary()`).
        guard let path = binary == "Xorg" ? XorgInstallation.serverBinary() : which(binary) else {
            throw VirtualServerError.notInstalled(binary: binary, package: package)
        }
        let cookie = XauthFile.makeCookie()
        // Held until the server is registered; a start that fails leaves nothing: its files go, and the
        // session folder if no server runs and no other start is under way.
        let serverAuth = try ServerRegistry.holdDirectory() + "/server-\(UUID().uuidString.prefix(8)).auth"
        var succeeded = false
        defer {
            if !succeeded { unlink(serverAuth) }
            ServerRegistry.releaseDirectory()
        }
        // The server reads every cookie of its -auth file, whatever display it names.
        try XauthFile.write(serverAuth, display: "", cookie: cookie)
        let serverArguments = ["-displayfd", "1", "-noreset", "-nolisten", "tcp", "-auth", serverAuth] + arguments
        var attempt = 0
        var started: (ChildProcess, Int)?
        while started == nil {
            attempt += 1
            // Xorg clears its parent-death signal as it sets itself up (seen here: it outlived a SIGKILLed
            // owner), so it runs under a shell that keeps the signal and passes SIGTERM on. Each server leads
            // a process group of its own: its end reaches the server under the shell, stopped or not.
            let p = type(of: implementation).runsUnderSupervisor
                ? try ChildProcess.spawn("/bin/sh", ["-c", Self.supervisor, "xorg-supervisor", path] + serverArguments,
                                         diesWithParent: true, ownGroup: true)
                : try ChildProcess.spawn(path, serverArguments, diesWithParent: true, ownGroup: true)
            ServerRegistry.register(p.pid)
            let (out, err) = (p.stdout, p.stderr)
            // Well inside 10 s: a server that hangs or prints no display number fails the start in time.
            let (number, early) = await onOwnThread { readLine(fd: out, draining: err, timeoutMs: 8_000) }
            if let number, let n = Int(number), n >= 0 {
                started = (p, n)
                continue
            }
            let rest = FileHandle(fileDescriptor: p.stderr, closeOnDealloc: false).availableDataNonBlocking()
            let log = String(decoding: early + rest, as: UTF8.self)
            p.terminate()
            ServerRegistry.unregister(p.pid)
            // -displayfd takes the first display whose socket it can bind, then stops with "already active"
            // if that display's lock file names a process that still exists: a server exiting (its socket
            // closed, its lock not yet removed) or dead and not yet reaped (a zombie). Seen under load with
            // servers starting and stopping side by side. Wait for that lock to go stale, then try again.
            // A server still going through taken displays when the time ran out ("server already
            // running", one line pair per display) was slow, not stuck: starved of the CPU by a burst of
            // servers starting beside it (seen under AddressSanitizer, a suite starting dozens at once).
            // Start it again, twice at most; a server that prints nothing or something else fails now.
            if number == nil, attempt < 3, Self.wasProbing(log) { continue }
            guard attempt < 5, let lock = Self.takenLock(in: log) else {
                throw VirtualServerError.didNotStart(binary: binary, log: String(log.suffix(2000)))
            }
            await onOwnThread { Self.clearWhenStale(lock) }
        }
        guard let (p, n) = started else { throw VirtualServerError.didNotStart(binary: binary, log: "no display") }
        let display = ":\(n)"
        do {
            try XauthFile.set(authorityFile, display: String(n), cookie: cookie)
        } catch {
            // The server runs, but no client could reach it: stop it and leave nothing.
            p.terminate()
            ServerRegistry.unregister(p.pid)
            throw error
        }
        if !environmentSet {
            setenv("XAUTHORITY", authorityFile, 1)
            environmentSet = true
        }
        // Keep the server from blocking on a full stderr pipe: it writes little, but never stop reading. The
        // drainer reads its own copy of the descriptor, so that `terminate` closing the original (and the
        // number being reused) never makes it read someone else's.
        let errFD = dup(p.stderr)
        if errFD >= 0 {
            Thread.detachNewThread {
                var buf = [UInt8](repeating: 0, count: 4096)
                while Glibc.read(errFD, &buf, buf.count) > 0 {}
                Glibc.close(errFD)
            }
        }
        succeeded = true
        return VirtualServer(implementation, display: display, process: p, authorityFile: authorityFile,
                             serverAuthFile: serverAuth, framebuffer: framebuffer)
    }

    /// Runs its arguments as a child and ends it on SIGTERM, SIGINT or SIGHUP (continued, should it be
    /// stopped: else the wait has no end); exits when it exits.
    static let supervisor = """
        "$@" & child=$!
        trap 'kill -TERM "$child" 2>/dev/null; kill -CONT "$child" 2>/dev/null; wait "$child"; exit 143' TERM INT HUP
        wait "$child"
        """

    /// Reads one line from `fd`, waiting at most `timeoutMs` in all, while reading what the process writes
    /// to `draining` meanwhile (its last 16 kB are returned): a server that writes more than a pipe holds
    /// before its display number (Xorg writes a score of lines for every display in use it passes over)
    /// would otherwise block on its stderr and never print the number.
    nonisolated static func readLine(fd: Int32, draining: Int32, timeoutMs: Int) -> (line: String?, log: [UInt8]) {
        var bytes: [UInt8] = [], log: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        var errOpen = true
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        while Date() < deadline {
            var pfds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: errOpen ? draining : -1, events: Int16(POLLIN), revents: 0)]
            let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&pfds, 2, left) > 0 else { continue }
            if pfds[1].revents != 0 {
                let n = read(draining, &buf, buf.count)
                if n > 0 { log.append(contentsOf: buf[0..<n]); if log.count > 32_768 { log.removeFirst(log.count - 16_384) } }
                if n == 0 { errOpen = false }
            }
            guard pfds[0].revents != 0 else { continue }
            var b: UInt8 = 0
            guard read(fd, &b, 1) == 1 else { return (nil, log) }
            if b == UInt8(ascii: "\n") { return (String(decoding: bytes, as: UTF8.self), log) }
            bytes.append(b)
        }
        return (nil, log)
    }
}

extension FileHandle {
    /// What can be read now without waiting.
    func availableDataNonBlocking() -> Data {
        var data = Data()
        var pfd = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        var buf = [UInt8](repeating: 0, count: 4096)
        while poll(&pfd, 1, 0) > 0 {
            let n = Glibc.read(fileDescriptor, &buf, buf.count)
            guard n > 0 else { break }
            data.append(contentsOf: buf[0..<n])
        }
        return data
    }
}

extension XServerLauncher {
    /// The lock file a failed start names ("If this server is no longer running, remove /tmp/.X9-lock").
    nonisolated static func takenLock(in log: String) -> String? {
        guard log.contains("already active"), let r = log.range(of: "/tmp/.X") else { return nil }
        let path = log[r.lowerBound...].prefix { !$0.isWhitespace }
        return path.hasSuffix("-lock") ? String(path) : nil
    }

    /// Whether a start's log shows an X server going through displays that other servers hold.
    nonisolated static func wasProbing(_ log: String) -> Bool {
        log.contains("server already running") && !log.contains("Fatal server error")
    }

    /// Waits (at most 3 s, on facts: /proc) until the lock's process is gone or a zombie, and removes the
    /// lock if it is still there: a zombie's lock would otherwise stop every server that picks its display.
    nonisolated static func clearWhenStale(_ lock: String) {
        for _ in 0..<300 {
            guard let text = ProcessControl.procFile(lock),
                  let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
            let stat = ProcessControl.procFile("/proc/\(pid)/stat") ?? ""
            let state = stat.split(separator: ")").last?.split(separator: " ").first
            if stat.isEmpty || state == "Z" {
                unlink(lock)
                return
            }
            // An exiting server removes its own lock in a moment: look again (poll on nothing, 10 ms).
            var none = pollfd()
            _ = poll(&none, 0, 10)
        }
    }
}
