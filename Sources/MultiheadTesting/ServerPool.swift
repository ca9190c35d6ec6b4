#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadX11
import MultiheadProcess

/// Warm servers kept between leases: a lease's end hands its server back here once it is as fresh as when
/// it started (its clients closed, its state reset and read back equal to the state it had fresh), and the
/// next `VirtualServer.start` of the same kind takes it instead of starting one. A server that cannot be
/// made fresh is stopped, never handed out. At most `idleLimit` idle servers are kept in all, whatever
/// their kinds and framebuffers: one handed back past it makes room by ending another (`victim`); the
/// registry stops the idle ones when the process ends, however it ends.
///
/// An instance with its bounds: the kit's Swift tests share `shared`; `multihead server`'s control service
/// makes its own (one lease at a time needs fewer idle servers, and spares none).
@MainActor
package final class ServerPool {
    /// What makes two servers interchangeable: everything `start` passes to the server binary.
    struct Key: Hashable {
        var kind: VirtualServer.Kind
        var framebuffer: Size
        var depth: Int
        var glx: Bool
        var serverArguments: [String]
    }

    /// Where a started server goes back to: a pool, under the key of the servers it can stand for.
    typealias Place = (pool: ServerPool, key: Key)

    /// A server between leases, with what the next lease needs.
    struct Idle {
        var implementation: any ServerKindImplementation
        var display: String
        var process: ChildProcess
        var authorityFile: String
        var serverAuthFile: String
        var control: ServerControl
        /// Its lease, ended: the state it had fresh, the layout it has plugged and that state (a next test
        /// asking for the same layout takes it as it is).
        var lease: ServerLease
    }

    /// A warm server that a reset could not make fresh: the caller starts a new one instead.
    struct NotFresh: Error {
        var differences: [String]
    }

    /// An idle server as the bound sees it: its display, its key, when it was handed back.
    struct Entry {
        var display: String
        var key: Key
        var since: Double
    }

    /// The pool this process's Swift tests share (`VirtualServer.start`).
    package static let shared = ServerPool()

    /// What a server needs to be pooled: per-test cookies, RandR and XKB to read and reset, XTest to release.
    static let requiredExtensions = ["SECURITY", "RANDR", "XKEYBOARD", "XTEST"]

    private var idle: [Key: [Idle]] = [:]
    /// The idle servers, the one idle longest first: which one goes to make room.
    private var order: [Entry] = []
    /// What the last refused reset left different (for tests and for a person reading a log).
    package internal(set) var lastRefusal: [String] = []

    /// How many idle servers are kept in all, whatever their keys; each idle Xvfb holds its framebuffer
    /// (about 130 MB at 7680×4320).
    let idleLimit: Int
    /// Seconds a server handed back is spared when it is the only idle one of its kind: a test process runs
    /// many tests at once, and the test that handed it back may lease it again. Until then the bound may
    /// be exceeded.
    let spareFor: Double

    /// A pool of at most `idleLimit` idle servers (by default four per core, at least eight), a lone one
    /// spared `spareFor` seconds (by default two minutes).
    package init(idleLimit: Int = max(8, 4 * ProcessInfo.processInfo.activeProcessorCount), spareFor: Double = 120) {
        self.idleLimit = idleLimit
        self.spareFor = spareFor
    }

    /// How many servers are idle now.
    var idleCount: Int { order.count }

    /// Which idle server goes to make room (nil: none may go yet): the one idle longest of the key with the
    /// most idle servers when a key has more than one (a burst of tests handing back servers of one kind
    /// ends its own spares); else the one idle longest, once it has been idle `spareFor` seconds.
    nonisolated static func victim(_ idle: [Entry], now: Double, spareFor: Double) -> String? {
        let counts = Dictionary(idle.map { ($0.key, 1) }, uniquingKeysWith: +)
        guard let most = counts.values.max() else { return nil }
        if most > 1 { return idle.first { counts[$0.key] == most }?.display }
        return idle.first.flatMap { now - $0.since >= spareFor ? $0.display : nil }
    }

    /// Whether a server of this key is idle.
    func hasIdle(_ key: Key) -> Bool { idle[key]?.isEmpty == false }

    /// A warm server of this key leased with this layout, if one is idle and can be made fresh for it (a
    /// server that cannot is ended, and its refusal kept).
    func take(_ key: Key, _ monitors: [VirtualServer.Monitor]) async -> VirtualServer? {
        // One turn of the main queue first, as a cold start's wait gives: the connections of apps released
        // since the last test close from their read sources' cancel handlers, which run there.
        guard hasIdle(key) else { return nil }
        await Task.yield()
        guard var list = idle[key], !list.isEmpty else { return nil }
        let warm = list.removeLast()
        idle[key] = list
        order.removeAll { $0.display == warm.display }
        // As a cold start does: the folders of this kit's processes that died without removing them go.
        ServerRegistry.sweepStaleDirectoriesIfChanged()
        let server = VirtualServer(warm: warm)
        do {
            try server.beginLease(monitors)
            return server
        } catch {
            if let refusal = error as? NotFresh { lastRefusal = refusal.differences }
            // Not handed out: a cold server instead.
            server.lease = nil
            server.stop()
            return nil
        }
    }

    /// Keeps a server whose lease ended (reset and checked): past the bound, it makes room by ending another.
    func keep(_ server: Idle) {
        let now = MonotonicClock.now()
        while order.count >= max(1, idleLimit), let display = Self.victim(order, now: now, spareFor: spareFor) { endIdle(display: display) }
        idle[server.lease.key, default: []].append(server)
        order.append(Entry(display: server.display, key: server.lease.key, since: now))
    }

    /// Ends the idle server at this display: its process and files go, as a server `stop()` does not pool.
    private func endIdle(display: String) {
        order.removeAll { $0.display == display }
        for (key, list) in idle {
            guard let i = list.firstIndex(where: { $0.display == display }) else { continue }
            var rest = list
            let server = rest.remove(at: i)
            idle[key] = rest
            VirtualServer.end(display: server.display, process: server.process, control: server.control,
                              serverAuthFile: server.serverAuthFile, sharedAuthorityFile: server.authorityFile)
        }
    }
}
