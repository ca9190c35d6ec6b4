#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Names created, renamed away and removed in one directory, from inotify: a test waits for a file to
/// appear, not for time. Not `Sendable`: one thread reads it.
final class DirectoryWatch {
    /// One change: what happened to which name.
    struct Change: Equatable {
        enum Kind { case created, renamedAway, removed }
        let kind: Kind
        let name: String
    }

    private let fd: Int32
    private var pending: [Change] = []

    /// Watches `directory`. `inotify_init1`, `inotify_add_watch`.
    init(_ directory: String) throws {
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0, inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_MOVED_FROM | IN_DELETE)) >= 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "inotify on \(directory): \(reason)"])
        }
    }

    deinit { close(fd) }

    /// The next change, or nil when none comes within `seconds`. `poll`, `read`.
    func next(within seconds: Double) -> Change? {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while pending.isEmpty {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            guard poll(&p, 1, ms) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { continue }
            pending += Self.parse(buffer[0..<n])
        }
        return pending.removeFirst()
    }

    /// The next change of `kind` to a name with `prefix`, skipping others; nil when none comes in time.
    func next(_ kind: Change.Kind, prefix: String, within seconds: Double) -> Change? {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero, let change = next(within: Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
            else { return nil }
            if change.kind == kind && change.name.hasPrefix(prefix) { return change }
        }
    }

    /// `struct inotify_event` records: wd, mask, cookie, len, then a NUL-padded name of `len` bytes.
    private static func parse(_ bytes: ArraySlice<UInt8>) -> [Change] {
        var changes: [Change] = [], i = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while i + header <= bytes.endIndex {
            let event = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: i - bytes.startIndex, as: inotify_event.self) }
            let mask = event.mask, length = Int(event.len)
            let nameBytes = bytes[(i + header)..<min(i + header + length, bytes.endIndex)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if mask & UInt32(IN_CREATE) != 0 { changes.append(Change(kind: .created, name: name)) }
            if mask & UInt32(IN_MOVED_FROM) != 0 { changes.append(Change(kind: .renamedAway, name: name)) }
            if mask & UInt32(IN_DELETE) != 0 { changes.append(Change(kind: .removed, name: name)) }
            i += header + length
        }
        return changes
    }
}
