#if canImport(Glibc)
import Glibc
#endif
import Foundation

extension VirtualServer {
    /// Runs `xrandr` (from x11-xserver-utils) against this server, as a person at its desktop would, and
    /// returns what it printed; throws with its error output when it fails.
    public func xrandr(_ arguments: [String]) async throws -> String {
        guard let path = XServerLauncher.which("xrandr") else {
            throw VirtualServerError.notInstalled(binary: "xrandr", package: "x11-xserver-utils")
        }
        let child = try ChildProcess.spawn(path, arguments, environment: environment)
        let (status, out, err) = await onOwnThread { child.collect() }
        guard status == 0 else {
            throw VirtualServerError.commandFailed(command: "xrandr " + arguments.joined(separator: " "),
                                                   output: String(decoding: err, as: UTF8.self))
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension ChildProcess {
    /// Reads stdout and stderr to their ends (both at once, so that neither pipe fills), then reaps the
    /// child; returns its exit status (128 + the signal if a signal ended it) and what it printed.
    package func collect() -> (status: Int32, stdout: Data, stderr: Data) {
        // Without a deadline it only returns complete.
        collect(within: nil) ?? (128 + SIGKILL, Data(), Data())
    }

    /// `collect()`, giving up after `seconds` (nil: never) while a pipe is still open: nil then, the child
    /// left running with its pipes open (for a report on it, then `terminate`). `poll`.
    package func collect(within seconds: Double?) -> (status: Int32, stdout: Data, stderr: Data)? {
        var out = Data(), err = Data()
        var open: [Int32: Bool] = [stdout: true, stderr: true]
        var buf = [UInt8](repeating: 0, count: 65536)
        let deadline = seconds.map { ContinuousClock.now + .milliseconds(Int64($0 * 1000)) }
        while open.values.contains(true) {
            var fds = open.filter(\.value).map { pollfd(fd: $0.key, events: Int16(POLLIN), revents: 0) }
            var wait: Int32 = -1
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return nil }
                wait = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            }
            let ready = poll(&fds, nfds_t(fds.count), wait)
            guard ready > 0 else {
                // EINTR or the time's up (checked above); any other failure is a bad descriptor: give up.
                if ready < 0 && errno != EINTR { open = [:] }
                continue
            }
            for p in fds where p.revents != 0 {
                let n = read(p.fd, &buf, buf.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { open[p.fd] = false; continue }
                if p.fd == stdout { out.append(contentsOf: buf[0..<n]) } else { err.append(contentsOf: buf[0..<n]) }
            }
        }
        close(stdout)
        close(stderr)
        return (ProcessControl.reap(pid) ?? 128 + SIGKILL, out, err)
    }
}

extension VirtualServer {
    /// Merges X resources into the server's database with `xrdb -nocpp -merge`, as a desktop's settings
    /// do: `["Xft.dpi": "192"]` makes every screen's scale 2.
    public func mergeResources(_ resources: [String: String]) async throws {
        guard let path = XServerLauncher.which("xrdb") else {
            throw VirtualServerError.notInstalled(binary: "xrdb", package: "x11-xserver-utils")
        }
        // xrdb reads a file; it lives in the server's own session directory, and only until xrdb is done.
        let file = URL(fileURLWithPath: authorityFile).deletingLastPathComponent()
            .appendingPathComponent("resources-\(UUID().uuidString.prefix(8))").path
        let text = resources.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\n" }.joined()
        try writeFile(file, Data(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let child = try ChildProcess.spawn(path, ["-nocpp", "-merge", file], environment: environment)
        let (status, _, err) = await onOwnThread { child.collect() }
        guard status == 0 else {
            throw VirtualServerError.commandFailed(command: "xrdb -nocpp -merge", output: String(decoding: err, as: UTF8.self))
        }
    }
}
