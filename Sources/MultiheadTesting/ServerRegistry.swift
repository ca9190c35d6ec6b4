#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import MultiheadX11
import Synchronization
import MultiheadProcess

/// Every X server this process started, so that they end with it however it ends: on SIGINT, SIGTERM and
/// SIGHUP (stop them, remove the session directory, exit 128 + signal), at `exit` (atexit), and on SIGKILL
/// (the kernel's parent-death signal, set in each server before it runs). Also owns the session directory:
/// made on first use (sweeping those whose owner process is gone), removed when the last server stops.
enum ServerRegistry {
    /// What the registry knows, behind one lock: any thread may start or stop a server.
    private struct State {
        var live: Set<pid_t> = []
        var directory: String?
        /// Starts under way that have files in the session directory but no registered server yet: the
        /// directory stays while any is held (another server stopping meanwhile must not take a starting
        /// server's config or cookie with it).
        var holds = 0
        var handlersInstalled = false
        /// The session directory opened and locked (`lockDirectory`) for as long as it exists.
        var lock: Int32 = -1
    }
    private static let state = Locked(State())

    /// Whether this process is stopping its servers for SIGINT, SIGTERM or SIGHUP (and will exit with
    /// 128 + the signal): a server's end is then no news to report.
    static var isStoppingForSignal: Bool { ProcessSignals.isEnding }
    /// This process's session directory name: one per process, made again when needed after removal.
    static let directoryPath = NSTemporaryDirectory() + "multihead-\(getpid())-\(UUID().uuidString.prefix(8))"

    /// The session directory, made (mode 0700) if missing, after sweeping the stale ones of processes that
    /// are gone (a SIGKILL leaves its directory: the next start removes it), and held until
    /// `releaseDirectory()`: a start takes it before writing its files and gives it back once its server
    /// is registered, or has failed. The temporary directory itself is never created: a missing one is
    /// `temporaryDirectoryMissing`.
    static func holdDirectory() throws -> String {
        try state.withLock { s in try holdDirectoryLocked(&s) }
    }

    private static func holdDirectoryLocked(_ s: inout State) throws -> String {
        var isDirectory: ObjCBool = false
        let tmp = NSTemporaryDirectory()
        guard FileManager.default.fileExists(atPath: tmp, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw VirtualServerError.temporaryDirectoryMissing(ProcessInfo.processInfo.environment["TMPDIR"] ?? tmp)
        }
        sweepStaleDirectories()
        if s.directory == nil || !FileManager.default.fileExists(atPath: directoryPath) {
            // Made and locked; a sweep of another process may remove it between the two (it saw no lock):
            // then it is made again.
            if s.lock >= 0 { close(s.lock) }
            s.lock = -1
            var attempts = 0
            while true {
                guard mkdir(directoryPath, 0o700) == 0 || errno == EEXIST else {
                    throw VirtualServerError.cannotCreate(path: directoryPath, reason: String(cString: strerror(errno)))
                }
                s.lock = lockDirectory(directoryPath) ?? -1
                if s.lock >= 0 { break }
                attempts += 1
                guard attempts < 10 else {
                    throw VirtualServerError.cannotCreate(path: directoryPath, reason: "another process removed it as it was made")
                }
            }
            s.directory = directoryPath
        }
        s.holds += 1
        return directoryPath
    }

    /// Gives back a hold; with no server running and no start under way, the session directory goes.
    static func releaseDirectory() {
        state.withLock { s in
            s.holds -= 1
            removeDirectoryIfIdleLocked(&s)
        }
    }

    /// Records a running server and makes sure the process cleans up after it.
    static func register(_ pid: pid_t) {
        let install = state.withLock { s in
            s.live.insert(pid)
            defer { s.handlersInstalled = true }
            return !s.handlersInstalled
        }
        if install { installHandlers() }
    }

    /// Forgets a server that stopped; with none left, the session directory goes.
    static func unregister(_ pid: pid_t) {
        state.withLock { s in
            s.live.remove(pid)
            removeDirectoryIfIdleLocked(&s)
        }
    }

    /// SIGTERM (and SIGCONT) to every live server's process group, then SIGKILL to the groups after a short
    /// grace; reaps them and removes the session directory. Safe from any thread.
    static func terminateAll() {
        let pids = state.withLock { s in
            defer { s.live.removeAll() }
            return s.live
        }
        // Each with its process group: Xorg under its supervising shell, stopped or not.
        ProcessControl.endGroups(pids)
        state.withLock { removeDirectoryLocked(&$0) }
        TemporaryFiles.removeAll()
        // What other kit processes killed since the last sweep left behind goes with this one.
        sweepStaleDirectories()
    }

    private static func removeDirectoryIfIdleLocked(_ s: inout State) {
        if s.live.isEmpty && s.holds == 0 { removeDirectoryLocked(&s) }
    }

    private static func removeDirectoryLocked(_ s: inout State) {
        guard let dir = s.directory else { return }
        try? FileManager.default.removeItem(atPath: dir)
        s.directory = nil
        // Unlocked only once it is gone: no sweep ever finds it unlocked while this process uses it.
        if s.lock >= 0 { close(s.lock) }
        s.lock = -1
    }

    /// The directory at `path` opened and locked (`flock`, exclusive, not waiting), checked to be the one
    /// still at `path`: its descriptor (close-on-exec; closing it unlocks), or nil when another process
    /// holds the lock or the directory is gone or was replaced. A session directory's owner holds this
    /// lock for the directory's life, and a sweep removes only a directory whose lock it could take: a
    /// lock, unlike a PID, means the same in every PID namespace that shares the temporary folder.
    static func lockDirectory(_ path: String) -> Int32? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var opened = stat(), atPath = stat()
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, fstat(fd, &opened) == 0, lstat(path, &atPath) == 0,
              opened.st_ino == atPath.st_ino, opened.st_dev == atPath.st_dev
        else {
            close(fd)
            return nil
        }
        return fd
    }

    /// The temporary folder's modification time at the last sweep.
    private static let sweptAt = Locked<timespec?>(nil)

    /// Sweeps (`sweepStaleDirectories`) when the temporary folder has changed since the last sweep (an
    /// entry made or removed there: a kit process's folder among them), else does nothing: a warm start's
    /// sweep, which on a busy /tmp (3,900 entries here) would cost a third of a warm test. A process that
    /// dies after the last sweep without removing its folder leaves it for the next change there, the next
    /// cold start, or this process's end. `stat`.
    static func sweepStaleDirectoriesIfChanged() {
        var st = stat()
        guard stat(NSTemporaryDirectory(), &st) == 0 else { return }
        let now = st.st_mtim
        let changed = sweptAt.withLock { last in
            defer { last = now }
            return last.map { $0.tv_sec != now.tv_sec || $0.tv_nsec != now.tv_nsec } ?? true
        }
        if changed { sweepStaleDirectories() }
    }

    /// Removes `multihead-PID-XXXXXXXX` directories in the temporary directory whose PID no longer runs and
    /// whose lock no process holds. The PID alone would not do: a process in another PID namespace sharing
    /// the folder (a container) has another number there, which here may answer ESRCH while it lives.
    /// The lock alone would not either: a live older version that takes none keeps its PID.
    static func sweepStaleDirectories() {
        let tmp = NSTemporaryDirectory()
        guard let names = directoryEntries(tmp, where: { $0.hasPrefix("multihead-") }) else { return }
        for name in names {
            let parts = name.split(separator: "-")
            guard parts.count == 3, let pid = pid_t(parts[1]), parts[2].count == 8, pid != getpid() else { continue }
            guard kill(pid, 0) != 0 && errno == ESRCH, let lock = lockDirectory(tmp + name) else { continue }
            try? FileManager.default.removeItem(atPath: tmp + name)
            close(lock)
        }
    }

    /// Stops the servers when the process ends: for a signal (a cleanup of `ProcessSignals`, the one
    /// owner of the process's signals, which then exits 128 + the signal) or at `exit` (atexit).
    private static func installHandlers() {
        atexit { ServerRegistry.terminateAll() }
        ProcessSignals.addCleanup { ServerRegistry.terminateAll() }
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
