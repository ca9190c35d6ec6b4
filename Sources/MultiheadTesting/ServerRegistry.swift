#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation

/// Every X server this process started, so that they end with it however it ends: on SIGINT, SIGTERM and
/// SIGHUP (stop them, remove the session directory, exit 128 + signal), at `exit` (atexit), and on SIGKILL
/// (the kernel's parent-death signal, set in each server before it runs). Also owns the session directory:
/// made on first use (sweeping those whose owner process is gone), removed when the last server stops.
enum ServerRegistry {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var live: Set<pid_t> = []
    nonisolated(unsafe) private static var directory: String?
    /// Starts under way that have files in the session directory but no registered server yet: the
    /// directory stays while any is held (another server stopping meanwhile must not take a starting
    /// server's config or cookie with it).
    nonisolated(unsafe) private static var holds = 0
    nonisolated(unsafe) private static var handlersInstalled = false
    /// Set once a signal's handling began: the servers end because this process is ending (128 + signal).
    nonisolated(unsafe) private static var stoppingForSignal = false

    /// Whether this process is stopping its servers for SIGINT, SIGTERM or SIGHUP (and will exit with
    /// 128 + the signal): a server's end is then no news to report.
    static var isStoppingForSignal: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stoppingForSignal
    }

    /// The write end of the pipe the signal handler writes the signal number to.
    nonisolated(unsafe) static var signalPipe: Int32 = -1
    /// This process's session directory name: one per process, made again when needed after removal.
    static let directoryPath = NSTemporaryDirectory() + "multihead-\(getpid())-\(UUID().uuidString.prefix(8))"

    /// The session directory, made (mode 0700) if missing, after sweeping the stale ones of processes that
    /// are gone (a SIGKILL leaves its directory: the next start removes it), and held until
    /// `releaseDirectory()`: a start takes it before writing its files and gives it back once its server
    /// is registered, or has failed. The temporary directory itself is never created: a missing one is
    /// `temporaryDirectoryMissing`.
    static func holdDirectory() throws -> String {
        lock.lock()
        defer { lock.unlock() }
        var isDirectory: ObjCBool = false
        let tmp = NSTemporaryDirectory()
        guard FileManager.default.fileExists(atPath: tmp, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw VirtualServerError.temporaryDirectoryMissing(ProcessInfo.processInfo.environment["TMPDIR"] ?? tmp)
        }
        sweepStaleDirectories()
        if directory == nil || !FileManager.default.fileExists(atPath: directoryPath) {
            guard mkdir(directoryPath, 0o700) == 0 || errno == EEXIST else {
                throw VirtualServerError.cannotCreate(path: directoryPath, reason: String(cString: strerror(errno)))
            }
            directory = directoryPath
        }
        holds += 1
        return directoryPath
    }

    /// Gives back a hold; with no server running and no start under way, the session directory goes.
    static func releaseDirectory() {
        lock.lock()
        defer { lock.unlock() }
        holds -= 1
        removeDirectoryIfIdleLocked()
    }

    /// Records a running server and makes sure the process cleans up after it.
    static func register(_ pid: pid_t) {
        lock.lock()
        live.insert(pid)
        let install = !handlersInstalled
        handlersInstalled = true
        lock.unlock()
        if install { installHandlers() }
    }

    /// Forgets a server that stopped; with none left, the session directory goes.
    static func unregister(_ pid: pid_t) {
        lock.lock()
        defer { lock.unlock() }
        live.remove(pid)
        removeDirectoryIfIdleLocked()
    }

    /// SIGTERM to every live server, then SIGKILL to those still there after a short grace; reaps them and
    /// removes the session directory. Safe from any thread.
    static func terminateAll() {
        lock.lock()
        let pids = live
        live.removeAll()
        lock.unlock()
        for pid in pids { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(2)
        var left = pids
        while !left.isEmpty && Date() < deadline {
            var status: Int32 = 0
            left = left.filter { waitpid($0, &status, WNOHANG) == 0 }
            if !left.isEmpty { usleep(2_000) }
        }
        for pid in left { kill(pid, SIGKILL); var s: Int32 = 0; waitpid(pid, &s, 0) }
        lock.lock()
        removeDirectoryLocked()
        lock.unlock()
    }

    private static func removeDirectoryIfIdleLocked() {
        if live.isEmpty && holds == 0 { removeDirectoryLocked() }
    }

    private static func removeDirectoryLocked() {
        guard let dir = directory else { return }
        try? FileManager.default.removeItem(atPath: dir)
        directory = nil
    }

    /// Removes `multihead-PID-XXXXXXXX` directories in the temporary directory whose PID no longer runs.
    private static func sweepStaleDirectories() {
        let tmp = NSTemporaryDirectory()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: tmp) else { return }
        for name in names where name.hasPrefix("multihead-") {
            let parts = name.split(separator: "-")
            guard parts.count == 3, let pid = pid_t(parts[1]), parts[2].count == 8, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { try? FileManager.default.removeItem(atPath: tmp + name) }
        }
    }

    /// Signal handlers that stop the servers and exit 128 + signal, unless the program set its own handler
    /// (or ignores the signal); and an atexit hook for an ordinary exit. The handler only writes the signal
    /// number to a pipe (all a handler may safely do); a thread of ours reads it and does the work. A real
    /// handler, unlike an ignore, is reset by `exec`: children keep the default behaviour.
    private static func installHandlers() {
        atexit { ServerRegistry.terminateAll() }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        signalPipe = fds[1]
        let readEnd = fds[0]
        Thread.detachNewThread {
            // A process started by Swift may have these blocked in every thread (the spawning thread's mask
            // is inherited): this thread takes them, so the kernel has somewhere to deliver them.
            var set = sigset_t()
            sigemptyset(&set)
            for s in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, s) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            var sig: UInt8 = 0
            while read(readEnd, &sig, 1) == 1 {
                lock.lock()
                stoppingForSignal = true
                lock.unlock()
                terminateAll()
                _exit(128 + Int32(sig))
            }
        }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            var current = sigaction()
            sigaction(sig, nil, &current)
            guard current.__sigaction_handler.sa_handler == nil else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                var byte = UInt8(truncatingIfNeeded: sig)
                _ = write(ServerRegistry.signalPipe, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, nil)
        }
    }
}

/// Runs spawns on one thread that lives as long as the process: the kernel sends the parent-death signal
/// when the thread that spawned a child ends, not the process.
package final class SpawnThread: @unchecked Sendable {
    /// The one spawn thread.
    package static let shared = SpawnThread()
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    private init() {
        let t = Thread { [unowned self] in
            // Children inherit the spawning thread's signal mask (Foundation's Process passes it on as it is):
            // from this thread they start with nothing blocked, so their parent-death SIGTERM arrives.
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            self.loop()
        }
        t.name = "multihead.spawn"
        t.start()
    }

    /// Runs `body` on the spawn thread and returns its result.
    package func run<T>(_ body: @escaping () -> T) -> T {
        var result: T?
        let done = DispatchSemaphore(value: 0)
        condition.lock()
        jobs.append {
            result = body()
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        guard let result else { preconditionFailure("the spawn thread signalled before running its job") }
        return result
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
