#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MultiheadProcess

/// A child's stderr drained on a thread of its own until it closes, keeping only its last few KB: a
/// child whose stderr pipe fills would block, and a failed start's reason is in its last lines.
final class StderrTail: Sendable {
    /// How much of the end is kept.
    static let limit = 4096
    private let kept = Locked<[UInt8]>([])

    /// Drains `fd`, which it owns (closed at its end of file).
    init(_ fd: Int32) {
        guard fd >= 0 else { return }
        let kept = kept
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                kept.withLock { tail in
                    tail += chunk[..<n]
                    if tail.count > Self.limit { tail.removeFirst(tail.count - Self.limit) }
                }
            }
            close(fd)
        }
    }

    /// The kept end, as text, trimmed.
    var text: String {
        String(decoding: kept.withLock { $0 }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
