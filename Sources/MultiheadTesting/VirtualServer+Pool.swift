#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadX11

extension VirtualServer {
    /// A lease of a warm server from the pool.
    convenience init(kind: Kind, warm: ServerPool.Idle) {
        self.init(kind: kind, display: warm.display, process: warm.process, authorityFile: warm.authorityFile,
                  serverAuthFile: warm.serverAuthFile, framebuffer: warm.lease.key.framebuffer)
        control = warm.control
        lease = warm.lease
        isWarm = true
    }

    /// Begins a test's lease, the same way on a server started now and on a warm one: the layout (as it
    /// is when the server has it already, else reset to fresh when it has another, and plugged, the state
    /// read for `stop()` to bring back), then a cookie of the test's own: in a file of the lease's own
    /// (`authorityFile`, removed at `stop()`), and in the file this process's clients read for the
    /// server's display. The kit's control connection stays on the server's own cookie, which no test's
    /// client has.
    func beginLease(_ monitors: [Monitor]) throws {
        guard var lease else { return }
        let c = try controlConnection()
        if lease.layout != monitors {
            if lease.layout != nil {
                let left = try c.reset(to: lease.baseline)
                guard left.isEmpty else { throw ServerPool.NotFresh(differences: left) }
                lease.resetToFresh()
            }
            try apply(monitors)
            lease.plugged(monitors, state: try c.fingerprint())
        }
        let (id, cookie) = try c.generateAuthorization()
        lease.authorization = id
        self.lease = lease
        let number = String(display.dropFirst())
        let own = ServerRegistry.directoryPath + "/lease-\(number)-\(UUID().uuidString.prefix(8)).auth"
        try XauthFile.write(own, display: number, cookie: cookie)
        authorityFile = own
        try XauthFile.set(sharedAuthorityFile, display: number, cookie: cookie)
    }

    /// Ends the lease: hands the server back to the pool, reset to the state the test began with (or to
    /// fresh); false when it was not kept (a fresh server, no room, or a reset that could not bring back
    /// its baseline), and `stop()` ends it.
    func returnToPool() -> Bool {
        guard let lease else { return false }
        guard let c = control, !c.isLost else {
            ServerPool.lastRefusal = ["the kit's connection to the server was lost (it ended, or stopped answering)"]
            return false
        }
        let idle = ServerPool.Idle(display: display, process: process, authorityFile: sharedAuthorityFile,
                                   serverAuthFile: serverAuthFile, control: c, lease: lease)
        // The lease's cookie stays in the shared file until the next lease's replaces it: revoked below,
        // it opens nothing.
        guard ServerPool.keep(idle) else { return false }
        control = nil
        return true
    }
}

extension VirtualServer {
    /// Bounds this process's idle servers in all, whatever their kinds and framebuffers: at most `limit`
    /// (by default four per core, at least eight), a lone server of its kind spared for `spareFor` seconds
    /// after it was handed back (by default 120); past the bound, one handed back ends another.
    package static func boundIdleServers(to limit: Int, sparingFor spareFor: Double) {
        ServerPool.idleLimit = limit
        ServerPool.spareFor = spareFor
    }
}
