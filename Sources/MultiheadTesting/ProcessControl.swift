#if canImport(Glibc)
import Glibc
#endif
internal import CProcessControl
import Foundation
import MultiheadX11
import MultiheadProcess

/// What outlives whom, and the one place that waits for children: `multihead server` ends with the
/// process that started it, `multihead run` ends whatever its command left running, and every child the
/// kit, the CLI or the bench starts is reaped here (`reap`, `reapIfEnded`, `waitUntilEnded`). The one
/// place the kit calls `prctl` and `waitpid`.
package enum ProcessControl {
    /// This process gets `signal` when the process that started it ends, however it ends (SIGKILL
    /// included). False when the parent was already gone before this call (the caller should then stop).
    /// The parent process is watched, not the thread that forked this one (which the parent-death signal
    /// follows: a Java or Go test that starts a server from a pool thread would lose it when that thread
    /// ends): a thread waits on the parent's pidfd. Where the kernel has no pidfd (before 5.3), the
    /// parent-death signal. `pidfd_open`, `prctl(PR_SET_PDEATHSIG)`.
    package static func dieWithParent(signal: Int32 = SIGTERM) -> Bool {
        let parent = getppid()
        let fd = mh_pidfd_open(parent)
        // The parent may have ended before the call: this process was then handed to a reaper already.
        guard getppid() == parent else {
            if fd >= 0 { close(fd) }
            return false
        }
        guard fd >= 0 else {
            _ = mh_set_parent_death_signal(signal)
            return getppid() == parent
        }
        Thread.detachNewThread {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            while poll(&p, 1, -1) < 0 && errno == EINTR {}
            close(fd)
            kill(getpid(), signal)
        }
        return true
    }

    /// A wait status as a shell reports it: the exit status, or 128 + the signal that ended the process.
    package static func shellStatus(_ status: Int32) -> Int32 {
        status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Waits for a child to end and reaps it; its status as a shell reports it (`shellStatus`), or nil when
    /// it is not (or no longer) this process's child. `waitpid`.
    @discardableResult
    package static func reap(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        while true {
            if waitpid(pid, &status, 0) == pid { return shellStatus(status) }
            guard errno == EINTR else { return nil }
        }
    }

    /// Reaps a child if it has ended; true when it has (or is not this process's child any more), false
    /// while it runs. `waitpid(WNOHANG)`.
    @discardableResult
    package static func reapIfEnded(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) != 0
    }

    /// Waits until a child has ended, leaving it for `reap` (so that its pid is not reused meanwhile): its
    /// status as a shell reports it, or nil when someone reaped it first. `waitid(WEXITED | WNOWAIT)`.
    package static func waitUntilEnded(_ pid: pid_t) -> Int32? {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
            guard errno == EINTR else { return nil }
        }
        let status = info._sifields._sigchld.si_status
        return info.si_code == CLD_EXITED ? status : 128 + status
    }

    /// Orphaned descendants of this process come to it instead of init, so that `endDescendants` finds
    /// what a command started in the background and left. `prctl(PR_SET_CHILD_SUBREAPER)`.
    package static func becomeSubreaper() {
        _ = mh_become_subreaper()
    }

    /// The children of a process: those of each of its threads (a child belongs to the thread that forked
    /// it). `/proc/PID/task/TID/children`.
    package static func children(of pid: pid_t) -> [pid_t] {
        let tasks = directoryEntries("/proc/\(pid)/task") ?? []
        return tasks.flatMap { tid -> [pid_t] in
            let text = procFile("/proc/\(pid)/task/\(tid)/children") ?? ""
            return text.split(separator: " ").compactMap { pid_t($0) }
        }
    }

    /// Every process below this one, children first.
    package static func descendants() -> [pid_t] {
        var found: [pid_t] = [], queue = children(of: getpid())
        while let next = queue.first {
            queue.removeFirst()
            guard !found.contains(next) else { continue }
            found.append(next)
            queue += children(of: next)
        }
        return found
    }

    /// Whether a process is gone or a zombie (ended, waiting to be reaped).
    package static func hasEnded(_ pid: pid_t) -> Bool {
        guard let stat = procFile("/proc/\(pid)/stat") else { return true }
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    /// Ends every process below this one: SIGTERM, then SIGKILL to what is left after `grace` seconds;
    /// reaps those that are (or become) this process's children. Returns how many there were.
    @discardableResult
    package static func endDescendants(grace: Double = 2) -> Int {
        var signalled: Set<pid_t> = []
        var killed = false
        let deadline = monotonicSeconds() + grace
        while true {
            let left = descendants()
            for pid in Set(children(of: getpid())) { reapIfEnded(pid) }
            let running = left.filter { !hasEnded($0) }
            if running.isEmpty { return signalled.count }
            for pid in running where !signalled.contains(pid) {
                kill(pid, SIGTERM)
                signalled.insert(pid)
            }
            if !killed, monotonicSeconds() > deadline {
                for pid in running { kill(pid, SIGKILL) }
                killed = true
            }
            // A process SIGKILL cannot end (stuck in the kernel) is not waited for without end.
            if killed, monotonicSeconds() > deadline + 5 { return signalled.count }
            var none = pollfd()
            _ = poll(&none, 0, 5)
        }
    }

    /// A small file (of /proc, or one another process is writing), read whole with `read`: Foundation's
    /// reader, given a file whose size is not what it reads, loses a chunk (LeakSanitizer reports it at
    /// exit). Nil when it cannot be opened.
    package static func procFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return n == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes += buffer[0..<n]
        }
    }

    private static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
