#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadX11
import MultiheadProcess

/// Warm servers this process keeps between tests: `stop()` hands a server back here once it is as fresh
/// as when it started (its clients closed, its state reset and read back equal to the state it had
/// fresh), and the next `VirtualServer.start` of the same kind takes it instead of starting one. A server
/// that cannot be made fresh is stopped, never handed out. At most `idleLimit` idle servers are kept in
/// all, whatever their kinds and framebuffers: one handed back past it makes room by ending another
/// (`victim`); the registry stops the idle ones when the process ends, however it ends.
@MainActor
enum ServerPool {
    /// What makes two servers interchangeable: everything `start` passes to the server binary.
    struct Key: Hashable {
        var kind: VirtualServer.Kind
        var framebuffer: Size
        var depth: Int
        var glx: Bool
        var serverArguments: [String]
    }

    /// A server between tests, with what the next lease needs.
    struct Idle {
        var display: String
        var process: ChildProcess
        var authorityFile: String
        var serverAuthFile: String
        var control: ServerControl
        /// Its lease: the state it had fresh, the layout it has plugged and that state (a next test asking
        /// for the same layout takes it as it is), and the authorization of the test that just ended.
        var lease: ServerLease
    }

    /// A warm server that a reset could not make fresh: the caller starts a new one instead.
    struct NotFresh: Error {
        var differences: [String]
    }

    private static var idle: [Key: [Idle]] = [:]
    /// An idle server as the bound sees it: its display, its key, when it was handed back.
    struct Entry {
        var display: String
        var key: Key
        var since: Double
    }

    /// The idle servers, the one idle longest first: which one goes to make room.
    private static var order: [Entry] = []
    /// What the last refused reset left different (for tests and for a person reading a log).
    static var lastRefusal: [String] = []

    /// What a server needs to be pooled: per-test cookies, RandR and XKB to read and reset, XTest to release.
    static let requiredExtensions = ["SECURITY", "RANDR", "XKEYBOARD", "XTEST"]

    /// How many idle servers are kept in all, whatever their keys; each idle Xvfb holds its framebuffer
    /// (about 130 MB at 7680×4320). By default four per core (at least eight). A process that leases one
    /// server at a time (`multihead server`, whose socket has one lease) keeps fewer.
    static var idleLimit = max(8, 4 * ProcessInfo.processInfo.activeProcessorCount)
    /// Seconds a server handed back is spared when it is the only idle one of its kind: a test process runs
    /// many tests at once, and the test that handed it back may lease it again (by default two minutes;
    /// `multihead server`, with one lease at a time, spares none). Until then the bound may be exceeded.
    static var spareFor = 120.0

    /// How many servers are idle now.
    static var idleCount: Int { order.count }

    /// Which idle server goes to make room (nil: none may go yet): the one idle longest of the key with the
    /// most idle servers when a key has more than one (a burst of tests handing back servers of one kind
    /// ends its own spares); else the one idle longest, once it has been idle `spareFor` seconds.
    static func victim(_ idle: [Entry], now: Double, spareFor: Double) -> String? {
        let counts = Dictionary(idle.map { ($0.key, 1) }, uniquingKeysWith: +)
        guard let most = counts.values.max() else { return nil }
        if most > 1 { return idle.first { counts[$0.key] == most }?.display }
        return idle.first.flatMap { now - $0.since >= spareFor ? $0.display : nil }
    }

    /// Whether a server of this key is idle.
    static func hasIdle(_ key: Key) -> Bool { idle[key]?.isEmpty == false }

    /// A warm server of this key, if one is idle.
    static func take(_ key: Key) -> Idle? {
        guard var list = idle[key], !list.isEmpty else { return nil }
        let server = list.removeLast()
        idle[key] = list
        order.removeAll { $0.display == server.display }
        return server
    }

    /// Resets a server a test is done with and keeps it; false when it is not kept (no room, or the reset
    /// could not bring back the state it had when the test began, nor the one it had fresh), and the caller
    /// stops it.
    static func keep(_ server: Idle) -> Bool {
        let key = server.lease.key
        lastRefusal = []
        guard !server.control.isLost else {
            lastRefusal = ["the kit's connection to the server was lost (it ended, or stopped answering)"]
            return false
        }
        var kept = server
        do {
            // Closes every client of the test that connected with its cookie, wherever they run.
            if let authorization = server.lease.authorization { try server.control.revokeAuthorization(authorization) }
            kept.lease.authorization = nil
            // Back to the state the test began with (its layout plugged); where that cannot be made (the
            // test unplugged a monitor of its layout), back to fresh, and the next test plugs its own.
            var left = try server.control.reset(to: server.lease.current)
            if !left.isEmpty, server.lease.layout != nil {
                left = try server.control.reset(to: server.lease.baseline)
                kept.lease.resetToFresh()
            }
            guard left.isEmpty else {
                lastRefusal = left
                return false
            }
        } catch {
            lastRefusal = ["\(error)"]
            return false
        }
        let now = MonotonicClock.now()
        while order.count >= max(1, idleLimit), let display = victim(order, now: now, spareFor: spareFor) { endIdle(display: display) }
        idle[key, default: []].append(kept)
        order.append(Entry(display: kept.display, key: key, since: now))
        return true
    }

    /// Ends the idle server at this display: its process and files go, as a server `stop()` does not pool.
    private static func endIdle(display: String) {
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
