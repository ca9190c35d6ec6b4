#if canImport(Glibc)
import Glibc
#endif

/// Bounds every wait on an X server. Xlib blocks in `read` for a reply that a stopped server never sends;
/// when a bounded section has run longer than `timeout`, the watchdog's thread shuts the connection's
/// socket down, so that Xlib takes its IO-error path (already handled: the connection is marked lost and
/// the caller gets `notResponding`). While connecting the descriptor is not known yet: the watchdog then
/// shuts down every X socket this process opened since the section began.
///
/// One plain thread per connection, sleeping on a condition: no Dispatch, whose first timer costs a
/// `multihead screens` a worker thread, a timer thread and an epoll set (about a tenth of its run).
final class XWatchdog: @unchecked Sendable {
    /// Seconds a bounded section may take.
    let timeout: Double
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var depth = 0
    private var deadline: Double = 0
    private var fd: Int32 = -1
    private var descriptorsBefore: [Descriptor] = []
    private var threadStarted = false
    /// Whether the thread waits with no deadline, and so needs a signal when a section begins.
    private var idle = false
    private var cancelled = false
    private var firedStorage = false

    init(timeout: Double) {
        self.timeout = timeout
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Deadlines are monotonic: a clock set back must not stretch a wait.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Whether the watchdog cut the connection.
    var fired: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return firedStorage
    }

    /// The connection's descriptor, once connected.
    func watch(descriptor: Int32) {
        pthread_mutex_lock(mutex)
        fd = descriptor
        descriptorsBefore = []
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` bounded by `timeout`, counted from the outermost section's start.
    func bounded<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        if depth == 0 && !cancelled {
            deadline = Self.now() + timeout
            if fd < 0 { descriptorsBefore = Self.openDescriptors() }
            // A thread waiting for an earlier deadline wakes then and waits again for this one; only an
            // idle one needs waking. Idle connections cost no wake-ups.
            if !threadStarted {
                threadStarted = startThread()
            } else if idle {
                pthread_cond_signal(condition)
            }
        }
        depth += 1
        pthread_mutex_unlock(mutex)
        defer {
            pthread_mutex_lock(mutex)
            depth -= 1
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }

    /// Stops watching (the connection is closed); the thread ends.
    func cancel() {
        pthread_mutex_lock(mutex)
        cancelled = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Starts the thread, which holds the watchdog until it ends; false when the system refuses a thread
    /// (the sections then run unbounded, as they would without a watchdog).
    private func startThread() -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        // It only waits and calls shutdown: a small stack is plenty, and costs a process no memory.
        pthread_attr_setstacksize(&attributes, 64 * 1024)
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            let watchdog = Unmanaged<XWatchdog>.fromOpaque(context).takeRetainedValue()
            watchdog.run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<XWatchdog>.fromOpaque(context).release()
            return false
        }
        return true
    }

    /// The thread: waits for the open section's deadline, and cuts the connection if it is still open then.
    private func run() {
        pthread_mutex_lock(mutex)
        while !cancelled && !firedStorage {
            guard depth > 0 else {
                idle = true
                pthread_cond_wait(condition, mutex)
                idle = false
                continue
            }
            let left = deadline - Self.now()
            guard left <= 0 else {
                var until = timespec()
                clock_gettime(CLOCK_MONOTONIC, &until)
                let whole = left.rounded(.down)
                until.tv_sec += Int(whole)
                until.tv_nsec += Int((left - whole) * 1e9)
                if until.tv_nsec >= 1_000_000_000 {
                    until.tv_sec += 1
                    until.tv_nsec -= 1_000_000_000
                }
                pthread_cond_timedwait(condition, mutex, &until)
                continue
            }
            firedStorage = true
            let targets = fd >= 0 ? [fd] : Self.openDescriptors().filter { !descriptorsBefore.contains($0) }.map(\.fd).filter(Self.isXSocket)
            pthread_mutex_unlock(mutex)
            for d in targets { shutdown(d, Int32(SHUT_RDWR)) }
            pthread_mutex_lock(mutex)
        }
        pthread_mutex_unlock(mutex)
    }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// An open descriptor and what it refers to: a number alone is reused (the listing's own directory
    /// descriptor is the next socket's number).
    struct Descriptor: Equatable {
        var fd: Int32
        var device: UInt64
        var inode: UInt64
    }

    /// The descriptors open in this process (`/proc/self/fd`).
    /// An array, not a set: a process has a handful, and a set's first use costs a conformance lookup.
    private static func openDescriptors() -> [Descriptor] {
        // readdir, not FileManager: this runs on every connect, and Foundation's first use is slow.
        (directoryEntries("/proc/self/fd") ?? []).compactMap { name in
            var st = stat()
            guard let fd = Int32(name), fstat(fd, &st) == 0 else { return nil }
            return Descriptor(fd: fd, device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
        }
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
