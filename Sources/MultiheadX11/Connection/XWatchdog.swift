#if canImport(Glibc)
import Glibc
#endif
import MultiheadProcess

/// Bounds every wait on an X server. Xlib blocks in `read` for a reply that a stopped server never sends;
/// when a bounded section has run longer than `timeout`, the watchdog's thread shuts the connection's
/// socket down, so that Xlib takes its IO-error path (already handled: the connection is marked lost and
/// the caller gets `notResponding`). While connecting the descriptor is not known yet: the watchdog then
/// shuts down the sockets this process opened since the section began that are connected to that
/// display's address, and no other (another thread's connection to another server, a socketpair).
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

    /// The address the guarded connection is made to.
    let endpoint: Endpoint

    init(timeout: Double, display: String) {
        self.timeout = timeout
        endpoint = Endpoint(display: display)
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

    /// Runs `body` bounded by `timeout`, counted from the outermost section's start, or by `until` (a
    /// `MonotonicClock` time) when that comes first: a caller that has waited already for its turn.
    package func bounded<T, E: Error>(until: Double? = nil, _ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        if depth == 0 && !cancelled {
            deadline = min(Self.now() + timeout, until ?? .infinity)
            if fd < 0 { descriptorsBefore = Self.openDescriptors() }
            // A thread waiting for an earlier deadline wakes then and waits again for this one; only an
            // idle one, or one that may wait past a sooner `until`, needs waking. Idle connections cost no
            // wake-ups.
            if !threadStarted {
                threadStarted = startThread()
            } else if idle || until != nil {
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
            let targets = fd >= 0 ? [fd] : Self.openDescriptors().filter { !descriptorsBefore.contains($0) }.map(\.fd)
                .filter { Self.peer(of: $0).map(endpoint.matches) ?? false }
            pthread_mutex_unlock(mutex)
            for d in targets { shutdown(d, Int32(SHUT_RDWR)) }
            pthread_mutex_lock(mutex)
        }
        pthread_mutex_unlock(mutex)
    }

    private static func now() -> Double { MonotonicClock.now() }

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

    /// The address a socket is connected to: a local socket's path (an abstract name with a leading
    /// "@"), or a TCP port; nil for anything else (a file, a pipe, an unconnected or unnamed socket).
    static func peer(of d: Int32) -> Endpoint.Peer? {
        var st = stat()
        guard fstat(d, &st) == 0, st.st_mode & S_IFMT == S_IFSOCK else { return nil }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(d, $0, &length) == 0 }
        }
        guard ok else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafeBytes(of: &storage) { .tcp(port: Int(UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self)))) }
        case AF_INET6:
            return withUnsafeBytes(of: &storage) { .tcp(port: Int(UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self)))) }
        case AF_UNIX:
            let offset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path) ?? 2
            guard Int(length) > offset else { return nil }
            let path = withUnsafeBytes(of: &storage) { raw -> String in
                let bytes = raw[offset..<min(raw.count, Int(length))]
                // An abstract name starts with a NUL; a path ends with one.
                if bytes.first == 0 { return "@" + String(decoding: bytes.dropFirst().prefix { $0 != 0 }, as: UTF8.self) }
                return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            return .local(path: path)
        default: return nil
        }
    }

    /// Where a display name leads: `:N`, `unix:N` and `unix/:N` to the local socket `.X11-unix/XN` (by path
    /// or abstract name), `HOST:N` to TCP port 6000 + N, `/PATH:N` to that socket path.
    struct Endpoint: Equatable {
        /// What a socket is connected to.
        enum Peer: Equatable {
            case local(path: String)
            case tcp(port: Int)
        }

        var localSuffix: String?
        var path: String?
        var port: Int?

        init(display: String) {
            let colon = display.lastIndex(of: ":") ?? display.endIndex
            var host = String(display[..<colon])
            let number = display[colon...].dropFirst().prefix { $0 != "." }
            if let slash = host.firstIndex(of: "/"), !host.hasPrefix("/") {
                // "protocol/host": unix/ is local; tcp/ and inet/ are TCP to the host.
                let proto = host[..<slash]
                host = String(host[host.index(after: slash)...])
                if proto == "unix" && host.isEmpty { host = "unix" }
            }
            if host.hasPrefix("/") {
                path = host
            } else if host.isEmpty || host == "unix" {
                localSuffix = "/.X11-unix/X" + number
            } else if let n = Int(number) {
                port = 6000 + n
            }
        }

        /// Whether a socket connected to `peer` is a connection to this display.
        func matches(_ peer: Peer) -> Bool {
            switch peer {
            case .local(let p): localSuffix.map { p.hasSuffix($0) } ?? (path.map { p == $0 || p == "@" + $0 } ?? false)
            case .tcp(let p): port == p
            }
        }
    }
}
