#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadServerControl

/// A lease: a test's hold on a pooled server, from its begin to its end, and the one owner of that life.
/// `begin` plugs the test's layout (reset to fresh first when the server has another) and gives the test a
/// cookie of its own; `reset` brings the server back in one call (to the state the lease began with, else
/// to fresh); `end` revokes the cookie (closing every client that used it), resets, and hands the server
/// back to its pool. What it carries from one lease of a server to the next: the pool and key, the state
/// the server had fresh, and the layout plugged with the state that gave. A server that is not pooled
/// (`fresh: true`, the wayland kind, or one without what the reset needs) has none.
///
/// "Lease" means this everywhere: the control socket's `lease` request and the pytest plugin's lease
/// object are the same hold, served by `LeaseSession`; the pool hands a warm server out (`take`) for one.
@MainActor
struct ServerLease {
    /// The pool the server goes back to.
    let pool: ServerPool
    /// Which servers are interchangeable with this one.
    let key: ServerPool.Key
    /// The state the server had fresh.
    let baseline: ServerFingerprint
    /// The layout plugged (nil: none, the server is as fresh) and the state it gave.
    private(set) var layout: [VirtualServer.Monitor]?
    private(set) var current: ServerFingerprint
    /// The authorization of the test holding it (revoked at its end); nil between leases.
    private(set) var authorization: UInt?

    /// A fresh server's lease, before any layout.
    init(pool: ServerPool, key: ServerPool.Key, baseline: ServerFingerprint) {
        self.pool = pool
        self.key = key
        self.baseline = baseline
        current = baseline
    }

    /// Begins the lease on `server`, the same way on a server started now and on a warm one: the layout
    /// (as it is when the server has it already, else reset to fresh when it has another, and plugged, the
    /// state read for the end to bring back), then a cookie of the test's own: in a file of the lease's own
    /// (`authorityFile`, removed at `stop()`), and in the file this process's clients read for the
    /// server's display. The kit's control connection stays on the server's own cookie, which no test's
    /// client has. A warm server that cannot be made fresh is `ServerPool.NotFresh`.
    mutating func begin(_ monitors: [VirtualServer.Monitor], on server: VirtualServer) throws {
        let c = try server.controlConnection()
        if layout != monitors {
            if layout != nil {
                let left = try resetToFresh(c)
                guard left.isEmpty else { throw ServerPool.NotFresh(differences: left) }
            }
            try server.apply(monitors)
            layout = monitors
            current = try c.fingerprint()
        }
        let (id, cookie) = try c.generateAuthorization()
        authorization = id
        let number = String(server.display.dropFirst())
        let own = ServerRegistry.directoryPath + "/lease-\(number)-\(UUID().uuidString.prefix(8)).auth"
        try XauthFile.write(own, display: number, cookie: cookie)
        server.authorityFile = own
        try XauthFile.set(server.sharedAuthorityFile, display: number, cookie: cookie)
    }

    /// Resets the server in one call: back to the state the lease began with (its layout plugged); where
    /// that cannot be made (the test unplugged a monitor of its layout), back to fresh, and the next lease
    /// plugs its own. What is still different (empty: the server is as it should be).
    mutating func reset(_ c: ServerControl) throws -> [String] {
        let left = try c.reset(to: current)
        guard !left.isEmpty, layout != nil else { return left }
        return try resetToFresh(c)
    }

    /// Resets the server to the state it had fresh: no layout. What is still different.
    private mutating func resetToFresh(_ c: ServerControl) throws -> [String] {
        let left = try c.reset(to: baseline)
        layout = nil
        current = baseline
        return left
    }

    /// Ends the lease: its clients closed (the cookie revoked), the server reset and handed back to the
    /// pool; false when it was not kept (the connection lost, or a reset that fell short: the pool's
    /// `lastRefusal` says what it left), and the caller ends the server.
    mutating func end(_ server: ServerPool.Idle) -> Bool {
        pool.lastRefusal = []
        guard !server.control.isLost else {
            pool.lastRefusal = ["the kit's connection to the server was lost (it ended, or stopped answering)"]
            return false
        }
        do {
            // Closes every client of the test that connected with its cookie, wherever they run.
            if let authorization { try server.control.revokeAuthorization(authorization) }
            authorization = nil
            let left = try reset(server.control)
            guard left.isEmpty else {
                pool.lastRefusal = left
                return false
            }
        } catch {
            pool.lastRefusal = ["\(error)"]
            return false
        }
        var kept = server
        kept.lease = self
        pool.keep(kept)
        return true
    }
}
