#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// The one owner of SIGINT, SIGTERM and SIGHUP in a process that uses Multihead: its handler only writes
/// the signal (and whether a terminal sent it) to a pipe, all a handler may safely do; a thread of its own
/// reads it and acts. By default the process then ends as the signal asks: every cleanup registered runs
/// (the kit stops its X servers, temporary files go) and the process exits with 128 + the signal. A
/// program that must outlive a signal (`multihead run`, which passes it on to its command) intercepts
/// them instead. The handler is installed only over a signal's default action: a program's own handler,
/// or an ignored signal, stays as it is.
package enum ProcessSignals {
    /// One signal: its number, and whether the kernel sent it for a terminal (a Ctrl-C reaches the whole
    /// foreground process group).
    package struct Caught: Sendable {
        package let signal: Int32
        package let fromTerminal: Bool
    }

    private struct State {
        var installed = false
        var cleanups: [@Sendable () -> Void] = []
        var interceptor: (@Sendable (Caught) -> Void)?
        var ending = false
    }
    private static let state = Mutex(State())
    /// The pipe's write end, for the handler (-1 before it exists): atomic, as a handler reads it.
    private static let writeEnd = Atomic<Int32>(-1)

    /// Whether the process is ending for a signal (the cleanups are running, the exit follows).
    package static var isEnding: Bool { state.withLock { $0.ending } }

    /// Runs `body` before the process ends for a signal (cleanups run in the order they were added; none is
    /// ever removed: make one that does nothing when it has nothing to do). Installs the handlers.
    package static func addCleanup(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.cleanups.append(body) }
        install()
    }

    /// From now on a signal goes to `body` (on the signals' thread) and the process does not end for it.
    package static func intercept(_ body: @escaping @Sendable (Caught) -> Void) {
        state.withLock { $0.interceptor = body }
        install()
    }

    /// Installs the handler and starts the thread, once.
    private static func install() {
        let first = state.withLock { s in
            defer { s.installed = true }
            return !s.installed
        }
        guard first else { return }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        writeEnd.store(fds[1], ordering: .releasing)
        let readEnd = fds[0]
        Thread.detachNewThread {
            // A process started by Swift may have these blocked in every thread (the spawning thread's mask
            // is inherited): this thread takes them, so that the kernel has somewhere to deliver them.
            var set = sigset_t()
            sigemptyset(&set)
            for s in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, s) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            var message: UInt16 = 0
            while read(readEnd, &message, 2) == 2 {
                deliver(Caught(signal: Int32(message & 0xFF), fromTerminal: message >> 8 != 0))
            }
        }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            var current = sigaction()
            sigaction(sig, nil, &current)
            // SIG_DFL only (a null handler): an ignored signal or a program's own handler stays.
            guard current.__sigaction_handler.sa_handler == nil else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { sig, info, _ in
                // SI_KERNEL: the terminal's driver sent it to the foreground process group. Two bytes in one
                // write (a pipe keeps them together), made without allocating.
                let fromTerminal: UInt16 = info?.pointee.si_code == 0x80 ? 1 : 0
                var message = UInt16(UInt8(truncatingIfNeeded: sig)) | fromTerminal << 8
                _ = write(ProcessSignals.writeEnd.load(ordering: .acquiring), &message, 2)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART | SA_SIGINFO
            sigaction(sig, &action, nil)
        }
    }

    /// Hands a signal to the interceptor, or ends the process after the cleanups.
    private static func deliver(_ caught: Caught) {
        let (interceptor, cleanups) = state.withLock { s -> ((@Sendable (Caught) -> Void)?, [@Sendable () -> Void]) in
            if s.interceptor == nil { s.ending = true }
            return (s.interceptor, s.cleanups)
        }
        if let interceptor { return interceptor(caught) }
        for cleanup in cleanups { cleanup() }
        _exit(128 + caught.signal)
    }
}
