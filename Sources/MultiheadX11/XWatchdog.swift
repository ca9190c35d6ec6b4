#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation

/// Bounds every wait on an X server. Xlib blocks in `read` for a reply that a stopped server never sends;
/// when a bounded section has run longer than `timeout`, a timer on another thread shuts the connection's
/// socket down, so that Xlib takes its IO-error path (already handled: the connection is marked lost and
/// the caller gets `notResponding`). While connecting the descriptor is not known yet: the watchdog then
/// shuts down every X socket this process opened since the section began.
final class XWatchdog: @unchecked Sendable {
    /// Seconds a bounded section may take.
    let timeout: Double
    private let lock = NSLock()
    private var depth = 0
    private var deadline: Double = 0
    private var fd: Int32 = -1
    private var descriptorsBefore: Set<Descriptor> = []
    /// Whether a check is scheduled; there is at most one, so a busy connection costs no pile of timers.
    private var checkPending = false
    private var cancelled = false
    private var firedStorage = false

    init(timeout: Double) {
        self.timeout = timeout
    }

    /// Whether the watchdog cut the connection.
    var fired: Bool {
        lock.lock()
        defer { lock.unlock() }
        return firedStorage
    }

    /// The connection's descriptor, once connected.
    func watch(descriptor: Int32) {
        lock.lock()
        fd = descriptor
        lock.unlock()
    }

    /// Runs `body` bounded by `timeout`, counted from the outermost section's start.
    func bounded<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock()
        var schedule = false
        if depth == 0 {
            deadline = Self.now() + timeout
            if fd < 0 { descriptorsBefore = Self.openDescriptors() }
            schedule = !checkPending
            checkPending = true
        }
        depth += 1
        lock.unlock()
        // One check at a time, at the deadline of the section that scheduled it; a later section's deadline
        // is checked when that one fires. Idle connections cost no wake-ups.
        if schedule { scheduleCheck(after: timeout) }
        defer {
            lock.lock()
            depth -= 1
            lock.unlock()
        }
        return try body()
    }

    /// Stops watching; the connection is closed.
    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    private func scheduleCheck(after seconds: Double) {
        // Holds the watchdog until then (a weak reference would give it a side table).
        DispatchQueue.global(qos: .userInitiated).asyncAfter(deadline: .now() + max(0.001, seconds)) { self.check() }
    }

    private func check() {
        lock.lock()
        guard depth > 0, !cancelled, !firedStorage else {
            checkPending = false
            lock.unlock()
            return
        }
        let left = deadline - Self.now()
        if left > 0 {
            // A section that began after this check was scheduled: check again at its deadline.
            lock.unlock()
            scheduleCheck(after: left)
            return
        }
        checkPending = false
        firedStorage = true
        let targets = fd >= 0 ? [fd] : Self.openDescriptors().subtracting(descriptorsBefore).map(\.fd).filter(Self.isXSocket)
        lock.unlock()
        for d in targets { shutdown(d, Int32(SHUT_RDWR)) }
    }

    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// An open descriptor and what it refers to: a number alone is reused (the listing's own directory
    /// descriptor is the next socket's number).
    struct Descriptor: Hashable {
        var fd: Int32
        var device: UInt64
        var inode: UInt64
    }

    /// The descriptors open in this process (`/proc/self/fd`).
    private static func openDescriptors() -> Set<Descriptor> {
        // readdir, not FileManager: this runs on every connect, and Foundation's first use is slow.
        guard let dir = opendir("/proc/self/fd") else { return [] }
        defer { closedir(dir) }
        var result = Set<Descriptor>()
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let fd = Int32(name) else { continue }
            var st = stat()
            guard fstat(fd, &st) == 0 else { continue }
            result.insert(Descriptor(fd: fd, device: UInt64(st.st_dev), inode: UInt64(st.st_ino)))
        }
        return result
    }

    /// Whether a descriptor is a socket connected to an X server: a local one under `.X11-unix/X` (or an
    /// unnamed local peer), or TCP.
    private static func isXSocket(_ d: Int32) -> Bool {
        var st = stat()
        guard fstat(d, &st) == 0, st.st_mode & S_IFMT == S_IFSOCK else { return false }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(d, $0, &length) == 0 }
        }
        guard ok else { return false }
        switch Int32(storage.ss_family) {
        case AF_INET, AF_INET6: return true
        case AF_UNIX:
            let path = withUnsafeBytes(of: &storage) { raw -> String in
                let offset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path) ?? 2
                let bytes = raw[offset..<min(raw.count, Int(length))].map { $0 == 0 ? UInt8(ascii: "@") : $0 }
                return String(decoding: bytes, as: UTF8.self)
            }
            // The peer of a socket connected to the abstract name may read as unnamed: take that too.
            return path.contains(".X11-unix/X") || Int(length) <= 2 || path.allSatisfy { $0 == "@" }
        default: return false
        }
    }
}
