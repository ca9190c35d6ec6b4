import Foundation
import Multihead

extension VirtualServer {
    /// A lease of a warm server from a pool.
    convenience init(warm: ServerPool.Idle) {
        self.init(warm.implementation, display: warm.display, process: warm.process, authorityFile: warm.authorityFile,
                  serverAuthFile: warm.serverAuthFile, framebuffer: warm.lease.key.framebuffer)
        control = warm.control
        lease = warm.lease
        isWarm = true
    }

    /// Begins a test's lease of a pooled server (`ServerLease.begin`); nothing for a server that is not.
    func beginLease(_ monitors: [Monitor]) throws {
        guard var lease else { return }
        try lease.begin(monitors, on: self)
        self.lease = lease
    }

    /// Ends the lease: hands the server back to its pool, reset to the state the test began with (or to
    /// fresh); false when it was not kept (a fresh server, or a reset that could not bring back its
    /// baseline), and `stop()` ends it.
    func returnToPool() -> Bool {
        guard var lease else { return false }
        guard let c = control, !c.isLost else {
            lease.pool.lastRefusal = ["the kit's connection to the server was lost (it ended, or stopped answering)"]
            return false
        }
        let idle = ServerPool.Idle(implementation: implementation, display: display, process: process, authorityFile: sharedAuthorityFile,
                                   serverAuthFile: serverAuthFile, control: c, lease: lease)
        // The lease's cookie stays in the shared file until the next lease's replaces it: revoked, it opens
        // nothing.
        guard lease.end(idle) else { return false }
        control = nil
        return true
    }

    /// What the last reset of this server's pool left different when it could not keep a server or hand
    /// one out (empty when none was refused).
    package var poolRefusal: [String] { lease?.pool.lastRefusal ?? [] }
}
