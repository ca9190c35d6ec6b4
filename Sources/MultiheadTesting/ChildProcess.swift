#if canImport(Glibc)
import Glibc
#endif
internal import CXlib
import Foundation

/// A child process started with `posix_spawn`, its stdout and stderr on pipes, reaped by PID with
/// `ProcessControl`. It inherits none of this process's other descriptors. (Foundation's `Process` learns of an
/// exit when a socket it gives the child closes; any other child that inherited that socket keeps it
/// open, and `waitUntilExit` then waits as long as that other child lives.)
package struct ChildProcess {
    package let pid: Int32
    /// The read end of the child's stdout.
    package let stdout: Int32
    /// The read end of the child's stderr.
    package let stderr: Int32
    /// The write end of the child's stdin, when spawned `withInput` (else its stdin is /dev/null).
    package let stdin: Int32?
    /// Whether it leads a process group of its own (spawned `ownGroup`): `terminate` ends the whole group.
    package var leadsGroup = false

    /// Starts `path` with `arguments` and the given extra environment; stdin is /dev/null, or a pipe
    /// `withInput`. With `diesWithParent`, the child gets SIGTERM when this process ends, however it ends
    /// (`setpriv --pdeathsig`, which sets the parent-death signal and then runs the program in its place);
    /// the spawn happens on a thread that lives as long as the process, as the kernel ties that signal to
    /// the thread.
    /// With `inheritsStdio`, the child shares this process's stdin, stdout and stderr instead (no pipes:
    /// `stdout` and `stderr` are -1), as a shell runs a command. With `ownGroup`, it leads a new process
    /// group, which what it starts joins: `terminate` then ends them all (an X server and its supervisor).
    package static func spawn(_ path: String, _ arguments: [String], environment extra: [String: String] = [:],
                              diesWithParent: Bool = false, withInput: Bool = false,
                              inheritsStdio: Bool = false, ownGroup: Bool = false) throws -> ChildProcess {
        var path = path, arguments = arguments
        if diesWithParent {
            guard let setpriv = XServerLauncher.which("setpriv") else {
                throw VirtualServerError.notInstalled(binary: "setpriv", package: "util-linux")
            }
            arguments = ["--pdeathsig", "TERM", "--", path] + arguments
            path = setpriv
        }
        let (p, a) = (path, arguments)
        return try SpawnThread.shared.run {
            Result { try spawnHere(p, a, environment: extra, withInput: withInput, inheritsStdio: inheritsStdio, ownGroup: ownGroup) }
        }.get()
    }

    private static func spawnHere(_ path: String, _ arguments: [String], environment extra: [String: String],
                                  withInput: Bool, inheritsStdio: Bool, ownGroup: Bool) throws -> ChildProcess {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], inPipe: [Int32] = [-1, -1]
        guard inheritsStdio || (pipe(&outPipe) == 0 && pipe(&errPipe) == 0 && (!withInput || pipe(&inPipe) == 0)) else {
            throw VirtualServerError.systemCall("pipe", reason: String(cString: strerror(errno)))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if inheritsStdio {
            // 0, 1 and 2 stay as they are.
        } else if withInput {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if !inheritsStdio {
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
            for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        }
        // Nothing else of ours goes with it: an inherited pipe end would keep another child's pipe open.
        mh_spawn_close_from(&actions, 3)
        // The child inherits the calling thread's signal mask, and runtime threads block signals: clear it,
        // or SIGTERM never reaches the server.
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var noSignals = sigset_t(), defaults = sigset_t()
        sigemptyset(&noSignals)
        sigemptyset(&defaults)
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigmask(&attr, &noSignals)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (ownGroup ? POSIX_SPAWN_SETPGROUP : 0)))
        var env = ProcessInfo.processInfo.environment
        // The file this process's own clients read holds every lease's cookie in turn: a child is given a
        // lease's own file (a server's `environment`), never inherits that one.
        if env["XAUTHORITY"] == XServerLauncher.authorityFile { env["XAUTHORITY"] = nil }
        for (k, v) in extra { env[k] = v }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attr, argv, envp)
        if !inheritsStdio {
            close(outPipe[1])
            close(errPipe[1])
        }
        if withInput && !inheritsStdio { close(inPipe[0]) }
        guard rc == 0 else {
            if !inheritsStdio { close(outPipe[0]); close(errPipe[0]) }
            if withInput && !inheritsStdio { close(inPipe[1]) }
            throw VirtualServerError.didNotStart(binary: path, log: String(cString: strerror(rc)))
        }
        return ChildProcess(pid: pid, stdout: outPipe[0], stderr: errPipe[0], stdin: withInput && !inheritsStdio ? inPipe[1] : nil,
                            leadsGroup: ownGroup)
    }

    /// SIGTERM (or `signal`), then SIGKILL if it has not ended within `grace`; always reaps it and closes
    /// the pipes. A child that leads its own group ends with the whole group, stopped members too
    /// (`ProcessControl.endGroups`).
    package func terminate(grace: Double = 2, signal: Int32 = SIGTERM) {
        defer { if stdout >= 0 { close(stdout) }; if stderr >= 0 { close(stderr) }; if let stdin { close(stdin) } }
        if leadsGroup { return ProcessControl.endGroups([pid], signal: signal, grace: grace) }
        guard !ProcessControl.reapIfEnded(pid) else { return }
        kill(pid, signal)
        let deadline = Date().addingTimeInterval(grace)
        while Date() < deadline {
            if ProcessControl.reapIfEnded(pid) { return }
            usleep(1_000)
        }
        kill(pid, SIGKILL)
        ProcessControl.reap(pid)
    }
}
