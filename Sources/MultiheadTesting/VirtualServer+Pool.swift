#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadX11

extension VirtualServer {
    /// A lease of a warm server from the pool.
    convenience init(kind: Kind, warm: ServerPool.Idle, key: ServerPool.Key) {
        self.init(kind: kind, display: warm.display, process: warm.process, authorityFile: warm.authorityFile,
                  serverAuthFile: warm.serverAuthFile, framebuffer: key.framebuffer)
        control = warm.control
        baseline = warm.baseline
        layout = warm.layout
        current = warm.current
        poolKey = key
        isWarm = true
    }

    /// Gives a warm server this layout: as it is when it has it already, else reset to fresh (when it has
    /// another) and plugged, and the state read for `stop()` to bring back.
    func prepare(_ monitors: [Monitor]) throws {
        guard layout != monitors else { return }
        let c = try controlConnection()
        if layout != nil, let baseline {
            let left = try c.reset(to: baseline)
            guard left.isEmpty else { throw ServerPool.NotFresh(differences: left) }
        }
        try apply(monitors)
        layout = monitors
        current = try c.fingerprint()
    }

    /// Gives this lease a cookie of its own: in a file of the lease's own (`authorityFile`, removed at
    /// `stop()`), and in the file this process's clients read for the server's display. The kit's control
    /// connection stays on the server's own cookie, which no test's client has.
    func beginLease() throws {
        let (id, cookie) = try controlConnection().generateAuthorization()
        authorization = id
        let number = String(display.dropFirst())
        let own = ServerRegistry.directoryPath + "/lease-\(number)-\(UUID().uuidString.prefix(8)).auth"
        try XauthFile.write(own, display: number, cookie: cookie)
        authorityFile = own
        try XauthFile.set(sharedAuthorityFile, display: number, cookie: cookie)
    }

    /// Hands the server back to the pool, reset to fresh; false when it was not kept (a fresh server, no
    /// room, or a reset that could not bring back its baseline), and `stop()` ends it.
    func returnToPool() -> Bool {
        guard let key = poolKey, let baseline, let current, let c = control, !c.isLost else { return false }
        let idle = ServerPool.Idle(display: display, process: process, authorityFile: sharedAuthorityFile,
                                   serverAuthFile: serverAuthFile, control: c, baseline: baseline, layout: layout, current: current)
        // The lease's cookie stays in the authority file until the next lease's replaces it: revoked below,
        // it opens nothing (and a rewrite of the file is a tenth of a warm test).
        guard ServerPool.keep(idle, key: key, authorization: authorization) else { return false }
        control = nil
        return true
    }
}
