import Foundation

extension VirtualServer {
    /// This process's session folder (`$TMPDIR/multihead-PID-XXXXXXXX`, mode 0700: only this user enters
    /// it), kept from now until the process ends: removed then however it ends (a signal, `exit`; a
    /// SIGKILL's folder goes at the next kit process's start). For a file that lives as long as the
    /// process's servers do, such as `multihead server`'s control socket.
    public static func holdSessionDirectory() throws -> String {
        try ServerRegistry.holdDirectory()
    }

    /// What the last reset of a warm server left different from the state it had fresh, when the pool could
    /// not keep it or hand it out (empty when none was refused): the reason a next start was cold.
    public static var lastPoolRefusal: [String] { ServerPool.shared.lastRefusal }
}
