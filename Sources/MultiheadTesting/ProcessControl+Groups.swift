#if canImport(Glibc)
import Glibc
#endif
import MultiheadProcess

extension ProcessControl {
    /// Ends children that each lead a process group of their own (the kit's X servers: Xorg runs under a
    /// supervising shell, and a server's helpers such as xkbcomp), with everything in each group: `signal`
    /// and SIGCONT to each group (a stopped process acts on nothing but SIGKILL until it is continued), then
    /// SIGKILL to each group once its leader has ended or `grace` has passed, and the leader reaped. The
    /// last SIGKILL comes before the reap: until then the leader's pid, the group's id, cannot be reused.
    /// A pid that does not lead a group is signalled alone; one that is not (or no longer) this process's
    /// child is passed over. `kill(-pgid)`, `waitid(WNOWAIT)`.
    package static func endGroups(_ leaders: some Collection<pid_t>, signal: Int32 = SIGTERM, grace: Double = 2) {
        let mine = leaders.filter(isUnreapedChild)
        for pid in mine {
            signalGroup(pid, signal)
            signalGroup(pid, SIGCONT)
        }
        var none = pollfd()
        let deadline = MonotonicClock.now() + grace
        while mine.contains(where: { !hasEnded($0) }), MonotonicClock.now() < deadline { _ = poll(&none, 0, 1) }
        for pid in mine {
            signalGroup(pid, SIGKILL)
            reap(pid)
        }
    }

    /// `signal` to the group `pid` leads, or to `pid` alone when it leads none. While `pid` is alive or
    /// unreaped, no other group can have its number as id, so the group signalled is its own.
    static func signalGroup(_ pid: pid_t, _ signal: Int32) {
        if kill(-pid, signal) != 0 && errno == ESRCH { kill(pid, signal) }
    }

    /// Whether `pid` is a child of this process not yet reaped (running, stopped or ended).
    static func isUnreapedChild(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }
}
