#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// SIGINT, SIGTERM and SIGHUP to `multihead run`, handed to a thread as values: the handler only writes
/// the signal and where it came from to a pipe (all a handler may safely do).
///
/// Installed before the server starts, so that the kit's own handlers (which stop the servers and exit
/// at once) stay out of the way: `run` passes the signal to its command first, waits for it, then stops
/// the server.
enum SignalRelay {
    /// One signal: its number, and whether the kernel sent it for a terminal (a Ctrl-C reaches the whole
    /// foreground process group, the command included, so it is not passed on again).
    struct Caught: Sendable {
        let signal: Int32
        let fromTerminal: Bool
    }

    /// The pipe's write end, for the handler (-1 before it exists).
    private static let writeEnd = Atomic<Int32>(-1)

    /// Installs the handlers and calls `body` on a thread of its own for each signal caught.
    static func install(_ body: @escaping @Sendable (Caught) -> Void) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        writeEnd.store(fds[1], ordering: .releasing)
        let readEnd = fds[0]
        Thread.detachNewThread {
            // Taken on this thread: a process started by Swift may have them blocked in every thread.
            var set = sigset_t()
            sigemptyset(&set)
            for s in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, s) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            var message: UInt16 = 0
            while read(readEnd, &message, 2) == 2 {
                body(Caught(signal: Int32(message & 0xFF), fromTerminal: message >> 8 != 0))
            }
        }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { sig, info, _ in
                // SI_KERNEL: the terminal's driver sent it to the foreground process group.
                // Two bytes in one write (a pipe keeps them together), made without allocating.
                let fromTerminal: UInt16 = info?.pointee.si_code == 0x80 ? 1 : 0
                var message = UInt16(UInt8(truncatingIfNeeded: sig)) | fromTerminal << 8
                _ = write(SignalRelay.writeEnd.load(ordering: .acquiring), &message, 2)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART | SA_SIGINFO
            sigaction(sig, &action, nil)
        }
    }
}
