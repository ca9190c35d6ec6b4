#if canImport(Glibc)
import Glibc
#endif
import CProcessControl
import Foundation
import MultiheadProcess

/// The control socket's system calls, in one place: a listening Unix stream socket that only its user
/// reaches, connections read a line at a time and written whole, and the client's connect.
/// `socket`, `bind`, `listen`, `accept4` and `getsockopt(SO_PEERCRED)` (through `CProcessControl`), `recv`,
/// `send`, `connect`.
package enum ControlSocket {
    /// A system call failed: its name and `strerror`.
    package struct Failure: Error, CustomStringConvertible {
        package var call: String
        package var reason: String
        package var code: Int32

        package init(_ call: String, code: Int32 = errno) {
            self.call = call
            self.code = code
            reason = String(cString: strerror(code))
        }

        package var description: String { "\(call): \(reason)" }
    }

    /// The longest line a request may be: a line past it is refused, and its connection closed. A request
    /// is a few hundred bytes; what a connection may hold buffered is this much at most.
    package static let lineLimit = 1 << 16

    /// A Unix socket's address for `path`; nil when the path does not fit (108 bytes with its NUL).
    private static func address(_ path: String) -> sockaddr_un? {
        var a = sockaddr_un()
        a.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: a.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &a.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return a
    }

    /// Binds and listens at `path` (mode 0600, in a folder only this user enters); the listening descriptor.
    /// `socket`, `bind`, `chmod`, `listen`.
    package static func listen(at path: String) throws(Failure) -> Int32 {
        guard var a = address(path) else { throw Failure("bind \(path)", code: ENAMETOOLONG) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        let bound = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let failure = Failure("bind \(path)")
            close(fd)
            throw failure
        }
        // The kernel's own cap on the backlog (net.core.somaxconn): a burst of connects waits in the queue
        // instead of being refused while the accepting thread catches up.
        guard chmod(path, 0o600) == 0, Glibc.listen(fd, SOMAXCONN) == 0 else {
            let failure = Failure("listen \(path)")
            close(fd)
            throw failure
        }
        return fd
    }

    /// The next connection (blocking); nil when the listening socket is gone. `accept4`.
    package static func accept(_ listening: Int32) -> Int32? {
        while true {
            let fd = mh_accept_cloexec(listening)
            if fd >= 0 { return fd }
            switch errno {
            case EBADF, EINVAL, ENOTSOCK: return nil
            case EINTR, ECONNABORTED: continue
            default:
                // Out of descriptors, buffers or memory: the next accept may find them; a tight loop would spin.
                usleep(10_000)
            }
        }
    }

    /// The user ID of the process at the other end, as the kernel recorded it at connect. `SO_PEERCRED`.
    package static func peerUser(_ fd: Int32) -> uid_t? {
        var uid: UInt32 = 0
        guard mh_peer_uid(fd, &uid) == 0 else { return nil }
        return uid_t(uid)
    }

    /// Connects to the socket at `path`, waiting at most `timeout` seconds for each answer. `connect`.
    package static func connect(to path: String, timeout: Double) throws(Failure) -> Int32 {
        guard var a = address(path) else { throw Failure("connect \(path)", code: ENAMETOOLONG) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let failure = Failure("connect \(path)")
            close(fd)
            throw failure
        }
        return fd
    }

    /// Writes all of `bytes`; false when the other end has gone (no SIGPIPE: `MSG_NOSIGNAL`). `send`.
    package static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress.map { $0 + sent }, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }
}

/// One connection's lines: what has arrived, split at newlines.
package final class ControlLines {
    /// What a read gave.
    package enum Read: Equatable {
        /// A whole line, without its newline.
        case line([UInt8])
        /// The other end closed (or a receive timed out, or failed).
        case end
        /// A line longer than `ControlSocket.lineLimit`.
        case tooLong
        /// Nothing arrived for `idleLimit` seconds between lines.
        case idle
        /// A line begun was not finished within `lineTime` seconds of its first byte.
        case slowLine
    }

    package let fd: Int32
    /// What has arrived and is not handed out yet: `buffer[start...]`.
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where to look for the next newline: the bytes before it have none.
    private var scanned = 0
    /// One receive's bytes, made once per connection.
    private var chunk = [UInt8](repeating: 0, count: 16384)
    /// Seconds a connection may send no request (a blank line is none) before it is closed (nil: no limit).
    private let idleLimit: Double?
    /// Seconds a line may take from its first byte to its newline (nil: no limit).
    private let lineTime: Double?
    /// When the idle time began: the connection's start, or its last request.
    private var idleSince = MonotonicClock.now()

    package init(_ fd: Int32, idleLimit: Double? = nil, lineTime: Double? = nil) {
        self.fd = fd
        self.idleLimit = idleLimit
        self.lineTime = lineTime
    }

    /// A request was read: the idle time starts again (a blank line does not count as one).
    package func markActive() { idleSince = MonotonicClock.now() }

    /// The next line; blocks until it is whole, or a limit runs out. `poll`, `recv`.
    package func next() -> Read {
        // When the bytes of the line now pending began to arrive.
        var lineBegan: Double? = start < buffer.count ? MonotonicClock.now() : nil
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                guard newline - start <= ControlSocket.lineLimit else { return .tooLong }
                let line = Array(buffer[start..<newline])
                start = newline + 1
                scanned = start
                // The bytes handed out go once they are most of the buffer: each byte moves once at most.
                if start > buffer.count / 2 {
                    buffer.removeSubrange(..<start)
                    (start, scanned) = (0, 0)
                }
                return .line(line)
            }
            scanned = buffer.count
            guard buffer.count - start <= ControlSocket.lineLimit else { return .tooLong }
            let deadline = lineBegan.flatMap { began in lineTime.map { began + $0 } } ?? idleLimit.map { idleSince + $0 }
            if let deadline {
                let left = deadline - MonotonicClock.now()
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = left <= 0 ? 0 : poll(&p, 1, Int32(min(left * 1000, 3_600_000).rounded(.up)))
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 { return lineBegan == nil ? .idle : .slowLine }
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return .end }
            if lineBegan == nil { lineBegan = MonotonicClock.now() }
            buffer += chunk[..<n]
        }
    }

    /// Writes one line. `send`.
    @discardableResult
    package func write(_ line: [UInt8]) -> Bool { ControlSocket.send(fd, line + [UInt8(ascii: "\n")]) }

    /// Writes a last line and ends the connection so that the other end reads it: a socket closed with
    /// requests still unread in it would reset the connection, and the answer would be lost. Sends the
    /// end, then reads what is left for at most a second in all (and a few megabytes) before the close;
    /// with `waiting: false`, only what has arrived already (the accepting thread, which must not stall).
    /// `shutdown`, `poll`, `recv`.
    package func finish(with line: [UInt8], waiting: Bool = true) {
        guard write(line) else { return }
        shutdown(fd, Int32(SHUT_WR))
        let deadline = MonotonicClock.now() + (waiting ? 1 : 0)
        var left = 64 * ControlSocket.lineLimit
        while left > 0 {
            let wait = max(0, deadline - MonotonicClock.now())
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32((wait * 1000).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            left -= n
        }
    }

    /// Closes the connection.
    package func close() { Glibc.close(fd) }
}
