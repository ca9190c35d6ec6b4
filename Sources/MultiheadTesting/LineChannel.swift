#if canImport(Glibc)
import Glibc
#endif
import MultiheadProcess

/// A child's output read a line at a time with a deadline (`poll`), for a line protocol such as the
/// Wayland compositor's. Used by one thread at a time (its owner's calls are serial).
final class LineChannel: @unchecked Sendable {
    /// What one read gave.
    enum Result: Equatable {
        /// A whole line, without its `\n` (and a `\r` before it).
        case line(String)
        /// No whole line before the deadline.
        case timedOut
        /// The other end closed (the child ended).
        case closed
    }

    /// The longest line kept: past it the line is cut there (an `outputs` answer of 16 outputs is ~5 KB).
    static let maximumLine = 1 << 20
    private var fd: Int32
    private var buffer: [UInt8] = []

    /// Reads `fd`, which it owns from now on (closed by `close()`).
    init(_ fd: Int32) { self.fd = fd }

    /// The next line, waiting at most until `deadline` (`MonotonicClock` seconds). `poll`, `read`.
    func readLine(until deadline: Double) -> Result {
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) ?? (buffer.count >= Self.maximumLine ? buffer.count : nil) {
                var line = Array(buffer[..<nl])
                buffer.removeFirst(min(nl + 1, buffer.count))
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return .line(String(decoding: line, as: UTF8.self))
            }
            guard fd >= 0 else { return .closed }
            let left = deadline - MonotonicClock.now()
            guard left > 0 else { return .timedOut }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(min(left * 1000, 60_000).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return .closed }
            buffer += chunk[..<n]
        }
    }

    /// Closes the descriptor (once).
    func close() {
        guard fd >= 0 else { return }
        _ = Glibc.close(fd)
        fd = -1
    }
}
