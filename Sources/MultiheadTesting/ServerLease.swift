import Multihead
import MultiheadServerControl

/// What a pooled server carries from one test to the next, and the one test's part of it: the pool it
/// belongs to, the state it had fresh, the layout plugged and the state that gave (what `stop()` brings
/// back), and, while a test holds it, the authorization that test's clients connect with. A server that is
/// not pooled (`fresh: true`, or one without what the reset needs) has none.
struct ServerLease {
    /// Which servers are interchangeable with this one.
    let key: ServerPool.Key
    /// The state the server had fresh.
    let baseline: ServerFingerprint
    /// The layout plugged (nil: none, the server is as fresh) and the state it gave.
    private(set) var layout: [VirtualServer.Monitor]?
    private(set) var current: ServerFingerprint
    /// The authorization of the test holding it (revoked at `stop()`); nil between tests.
    var authorization: UInt?

    /// A fresh server's lease, before any layout.
    init(key: ServerPool.Key, baseline: ServerFingerprint) {
        self.key = key
        self.baseline = baseline
        current = baseline
    }

    /// The layout is plugged, and gave `state`.
    mutating func plugged(_ monitors: [VirtualServer.Monitor], state: ServerFingerprint) {
        layout = monitors
        current = state
    }

    /// The server was reset to fresh: no layout.
    mutating func resetToFresh() {
        layout = nil
        current = baseline
    }
}
