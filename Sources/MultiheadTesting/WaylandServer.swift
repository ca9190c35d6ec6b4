#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MultiheadProcess

/// Multihead's headless Wayland compositor (`Compositor/`) for a test: started with a private
/// `XDG_RUNTIME_DIR` inside the kit's session folder, driven over its stdin and stdout (one command a
/// line, one answer a line: Compositor/README.md is the contract), stopped by PID.
///
/// ```swift
/// let compositor = try await WaylandServer.start()
/// defer { compositor.stop() }
/// _ = try compositor.send(["plug", "HDMI-1", "mode=1280x720", "scale=2"])
/// let outputs = try compositor.send(["outputs"])
/// ```
///
/// It ends with its owner however the owner ends: its stdin is a pipe only this process writes (closed,
/// it ends the compositor), it is spawned with the kit's parent-death SIGTERM, and the kit's registry
/// ends it on SIGINT, SIGTERM, SIGHUP and at `exit`. A killed owner's runtime folder goes with its
/// session folder at the next kit process's sweep.
@MainActor
public final class WaylandServer {
    /// When Xwayland starts (the compositor's `--xwayland=`).
    public enum Xwayland: String, Sendable {
        /// The X socket listens at once; Xwayland starts with the first X client.
        case lazy
        /// Started before the ready line.
        case eager
        /// No X socket: `display` is nil.
        case off
    }

    /// The compositor's process ID.
    public let pid: Int32
    /// The compositor's process (its pipes are this object's).
    let process: ChildProcess
    /// The Wayland socket's name in `runtimeDirectory` (`WAYLAND_DISPLAY`), such as "wayland-0".
    public let waylandDisplay: String
    /// Xwayland's display, such as ":3" (nil with `.off`, or when `xwaylandUnavailable`).
    public let display: String?
    /// Whether lazy Xwayland found no X display free (wlroots 0.15 takes one among :0…:32 only, which a
    /// machine running many X servers may have filled): Wayland clients only.
    public let xwaylandUnavailable: Bool
    /// The compositor's private `XDG_RUNTIME_DIR`, removed at `stop()`.
    public let runtimeDirectory: String
    /// The binary that runs.
    public let binary: String
    /// How long `send` waits for an answer before `notResponding`.
    public var timeout: Double = 5
    /// The write end of the compositor's stdin.
    private let input: Int32
    /// Its stdout, read a line at a time.
    private let output: LineChannel
    /// The end of what it wrote on stderr (wlroots' log), for the reason of a failed start.
    private let log: StderrTail
    /// Whether `stop()` ran.
    public private(set) var stopped = false

    private init(process: ChildProcess, ready: ReadyLine, runtimeDirectory: String, binary: String, input: Int32, output: LineChannel, log: StderrTail) {
        self.process = process
        pid = process.pid
        waylandDisplay = ready.waylandDisplay
        display = ready.display
        xwaylandUnavailable = ready.xwaylandUnavailable
        self.runtimeDirectory = runtimeDirectory
        self.binary = binary
        self.input = input
        self.output = output
        self.log = log
    }

    isolated deinit { stop() }

    /// What a client needs to reach it: `WAYLAND_DISPLAY`, `XDG_RUNTIME_DIR` and Xwayland's `DISPLAY`.
    public var environment: [String: String] {
        var env = ["WAYLAND_DISPLAY": waylandDisplay, "XDG_RUNTIME_DIR": runtimeDirectory]
        if let display { env["DISPLAY"] = display }
        return env
    }

    /// Starts the compositor (found by `compositorBinary()`) and waits for its ready line, at most
    /// `readyWithin` seconds. No output is plugged yet.
    public static func start(xwayland: Xwayland = .lazy, readyWithin: Double = 10) async throws -> WaylandServer {
        let binary = try compositorBinary()
        let session = try ServerRegistry.holdDirectory()
        defer { ServerRegistry.releaseDirectory() }
        var template = Array((session + "/wayland-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw VirtualServerError.cannotCreate(path: session + "/wayland-XXXXXX", reason: String(cString: strerror(errno)))
        }
        let runtime = String(cString: made)
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(binary, ["--xwayland=\(xwayland.rawValue)"], environment: ["XDG_RUNTIME_DIR": runtime],
                                           diesWithParent: true, withInput: true)
        } catch {
            try? FileManager.default.removeItem(atPath: runtime)
            throw error
        }
        ServerRegistry.register(child.pid)
        let log = StderrTail(child.stderr)
        let output = LineChannel(child.stdout)
        let deadline = MonotonicClock.now() + readyWithin
        let line = await onOwnThread { output.readLine(until: deadline) }
        let fail = { (why: String) -> WaylandServerError in
            Self.end(pid: child.pid, input: child.stdin, output: output, runtimeDirectory: runtime)
            let said = log.text
            return .didNotStart(binary: binary, log: said.isEmpty ? why : why + ": " + said)
        }
        guard case .line(let text) = line else {
            throw fail(line == .timedOut ? "no ready line within \(readyWithin) s" : "it exited before its ready line")
        }
        guard let ready = ReadyLine(text), let input = child.stdin else { throw fail("its first line was \"\(text)\", not the ready line") }
        return WaylandServer(process: child, ready: ready, runtimeDirectory: runtime, binary: binary, input: input, output: output, log: log)
    }

    /// Sends one command (its words quoted as the contract says) and returns the answer's result: what
    /// follows `ok ` (empty for a bare `ok`). `error CODE reason` throws `refused` with the code and reason;
    /// no answer within `timeout` throws `notResponding`; an ended compositor `ended`.
    @discardableResult
    public func send(_ words: [String]) throws(WaylandServerError) -> String {
        // The protocol ends a command at a line's end whatever its quotes: a control character in a value
        // could end the command early and start another, so none is written (checked here, the one way in).
        if let bad = words.first(where: { $0.unicodeScalars.contains(where: Self.isControl) }) {
            throw .unsendable(command: words.first ?? "", value: bad)
        }
        let line = words.map(Self.word).joined(separator: " ")
        guard !stopped, Self.write(input, Array((line + "\n").utf8)) else { throw .ended(pid: pid) }
        switch output.readLine(until: MonotonicClock.now() + timeout) {
        case .closed: throw .ended(pid: pid)
        case .timedOut: throw .notResponding(command: words.first ?? "", seconds: timeout)
        case .line(let answer):
            if answer == "ok" { return "" }
            if answer.hasPrefix("ok ") { return String(answer.dropFirst(3)) }
            let parts = answer.split(separator: " ", maxSplits: 2).map(String.init)
            guard parts.count >= 2, parts[0] == "error" else { throw .malformedAnswer(command: line, answer: answer) }
            throw .refused(command: line, code: parts[1], reason: parts.count > 2 ? parts[2] : "")
        }
    }

    /// A word as the control protocol reads it: as it is when it has no space, quote or backslash, else in
    /// double quotes with `"` and `\` escaped. Control characters never get here (`send` refuses them).
    nonisolated static func word(_ text: String) -> String {
        let plain = !text.isEmpty && !text.unicodeScalars.contains { $0 == " " || $0 == "\"" || $0 == "\\" }
        if plain { return text }
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// C0 controls and DEL: what a line of the protocol cannot carry.
    nonisolated static func isControl(_ c: Unicode.Scalar) -> Bool { c.value < 0x20 || c.value == 0x7F }

    /// Stops the compositor: its stdin closed (it ends, removing its socket and ending Xwayland), SIGTERM
    /// after 2 s, SIGKILL 2 s later; reaps it and removes its runtime folder.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        Self.end(pid: pid, input: input, output: output, runtimeDirectory: runtimeDirectory)
    }

    /// Waits until the compositor ends, however it ends, and returns how (its exit status, or 128 + the
    /// signal); the process is left for `stop()` to reap. While this process is ending for a signal, it
    /// does not return (as `VirtualServer.waitForExit`).
    public func waitForExit() async -> Int32 {
        let pid = pid
        return await onOwnThread {
            let status = ProcessControl.waitUntilEnded(pid)
            while ServerRegistry.isStoppingForSignal { pause() }
            return status ?? 128 + SIGTERM
        }
    }

    /// The end of the compositor's stderr so far.
    public var stderrTail: String { log.text }

    private nonisolated static func end(pid: Int32, input: Int32?, output: LineChannel, runtimeDirectory: String) {
        if let input { close(input) }
        if !waitForEnd(pid, within: 2) {
            kill(pid, SIGTERM)
            if !waitForEnd(pid, within: 2) {
                kill(pid, SIGKILL)
                ProcessControl.reap(pid)
            }
        }
        output.close()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
        ServerRegistry.unregister(pid)
    }

    /// Reaps `pid` if it ends within `seconds`.
    private nonisolated static func waitForEnd(_ pid: Int32, within seconds: Double) -> Bool {
        let deadline = MonotonicClock.now() + seconds
        repeat {
            if ProcessControl.reapIfEnded(pid) { return true }
            usleep(1_000)
        } while MonotonicClock.now() < deadline
        return ProcessControl.reapIfEnded(pid)
    }

    /// Writes all of `bytes`; false when the compositor's end of the pipe has closed. SIGPIPE is blocked
    /// on this thread for the write and a pending one taken back, so a dead compositor is an answer, not
    /// the end of this process.
    private nonisolated static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var pipeSignal = sigset_t(), previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var none = timespec()
                sigtimedwait(&pipeSignal, nil, &none)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress.map { $0 + sent }, $0.count - sent) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }
}

/// The compositor's ready line: `ready WAYLAND_DISPLAY=wayland-0 DISPLAY=:3 PID=12345`, or without
/// `DISPLAY=` and with `XWAYLAND=unavailable` when Xwayland found no X display free.
struct ReadyLine: Equatable {
    var waylandDisplay: String
    var display: String?
    var pid: Int32
    var xwaylandUnavailable = false

    init?(_ line: String) {
        let words = line.split(separator: " ").map(String.init)
        guard words.first == "ready" else { return nil }
        var values: [String: String] = [:]
        for word in words.dropFirst() {
            guard let eq = word.firstIndex(of: "=") else { return nil }
            values[String(word[..<eq])] = String(word[word.index(after: eq)...])
        }
        guard let socket = values["WAYLAND_DISPLAY"], !socket.isEmpty, let pid = values["PID"].flatMap({ Int32($0) }) else { return nil }
        waylandDisplay = socket
        display = values["DISPLAY"]
        self.pid = pid
        xwaylandUnavailable = values["XWAYLAND"] == "unavailable"
    }
}
