import Multihead
import MultiheadX11

extension VirtualServer {
    /// A lease of a warm server from the pool.
    convenience init(kind: Kind, warm: ServerPool.Idle, key: ServerPool.Key) {
        self.init(kind: kind, display: warm.display, process: warm.process, authorityFile: warm.authorityFile,
                  serverAuthFile: warm.serverAuthFile, framebuffer: key.framebuffer)
        control = warm.control
        baseline = warm.baseline
        poolKey = key
        isWarm = true
    }

    /// Gives this lease a cookie of its own, written to the authority file for the server's display. The
    /// kit's control connection stays on the server's own cookie, which no test's client has.
    func beginLease() throws {
        let (id, cookie) = try controlConnection().generateAuthorization()
        authorization = id
        try XauthFile.set(authorityFile, display: String(display.dropFirst()), cookie: cookie)
    }

    /// Hands the server back to the pool, reset to fresh; false when it was not kept (a fresh server, no
    /// room, or a reset that could not bring back its baseline), and `stop()` ends it.
    func returnToPool() -> Bool {
        guard let key = poolKey, let baseline, let c = control, !c.isLost else { return false }
        let idle = ServerPool.Idle(display: display, process: process, authorityFile: authorityFile,
                                   serverAuthFile: serverAuthFile, control: c, baseline: baseline)
        // Nobody connects between tests: the display's cookie leaves the authority file meanwhile.
        try? XauthFile.set(authorityFile, display: String(display.dropFirst()), cookie: nil)
        guard ServerPool.keep(idle, key: key, authorization: authorization) else { return false }
        control = nil
        return true
    }
}
