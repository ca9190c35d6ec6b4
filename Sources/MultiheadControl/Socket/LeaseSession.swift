import Multihead
import MultiheadTesting

/// The leases of one `multihead server`: the one owner of which lease is held, on which server, how the
/// earlier ones ended, and why a server was not kept. A lease is a test's hold on the server: `lease`
/// ends the one held (its clients closed, the server reset and checked) and gives out the next, with an
/// identity requests may name so that a test never acts on a server another test now holds.
@MainActor
package final class LeaseSession {
    /// The X server running now, leased or idle (nil when a release ended it and no lease started another).
    package private(set) var running: VirtualServer?
    /// Whether a test holds `running` now (false between `release` and the next `lease`).
    package private(set) var isLeased: Bool
    /// The identity of the lease held now. The first lease (the server as started) has one too, which no
    /// client is told.
    package private(set) var id = LeaseSession.newID()
    /// How the leases before the current one ended, for the refusal a request naming one gets.
    private var endedLeases: [String: String] = [:]
    /// The server a release ended rather than kept, and why: the next lease compares with it and says it.
    private var ended: (display: String, pid: Int32, reason: String)?

    /// A session whose first lease is held on `server`, as started.
    package init(server: VirtualServer) {
        running = server
        isLeased = true
    }

    /// What a new lease gives out.
    package struct Grant {
        package var id: String
        package var server: VirtualServer
        /// Whether it is another server than the last lease's (another display or process).
        package var replaced: Bool
        /// Why it was replaced (nil when it was not).
        package var reason: String?
    }

    /// The server of the lease held, when `named` is nil or names it; else `noLease` saying how the named
    /// one ended.
    package func held(naming named: String?, for request: String) throws(CommandFailure) -> VirtualServer {
        if let named, !(isLeased && named == id) {
            let how = endedLeases[named].map { "it ended: \($0)" } ?? "no lease of that name was given out"
            throw CommandFailure(.noLease, message: "\(request): lease \"\(named.terminalEscaped)\" is not the one held now (\(how)); nothing was done")
        }
        guard isLeased, let running else {
            throw CommandFailure(.noLease, message: "no lease is held: send {\"request\":\"lease\"} first")
        }
        return running
    }

    /// Ends the lease held (its clients closed, the server reset and checked) and starts the next on a
    /// server `start` gives (from the pool: the same one when it could be made fresh).
    package func lease(start: () async throws -> VirtualServer) async throws -> Grant {
        let before = running.map { ($0.display, $0.pid) } ?? ended.map { ($0.display, $0.pid) }
        let (_, reason) = release(because: "a later lease replaced it")
        running = nil
        let next = try await start()
        running = next
        isLeased = true
        id = Self.newID()
        let replaced = before.map { $0.0 != next.display || $0.1 != next.pid } ?? true
        // Not ended but not taken again either: the layout needs a framebuffer the last server does not have.
        let why = reason ?? ended?.reason ?? "the layout asked for needs a server of another framebuffer size"
        ended = nil
        return Grant(id: id, server: next, replaced: replaced, reason: replaced ? why : nil)
    }

    /// Ends the lease held, if any (`how` is what a request that still names it is told): kept when the
    /// server went back to the pool; else the reason it was ended.
    package func release(because how: String) -> (kept: Bool, reason: String?) {
        guard isLeased, let held = running else { return (running != nil, running == nil ? ended?.reason ?? "no server is running" : nil) }
        isLeased = false
        // A bounded memory of ended leases: enough to tell a test what happened to its own.
        if endedLeases.count >= 64 { endedLeases.removeAll() }
        endedLeases[id] = how
        held.stop()
        if held.wasPooled { return (true, nil) }
        let left = VirtualServer.lastPoolRefusal
        let why = left.isEmpty ? "the server could not be reset" : "a reset left: " + left.joined(separator: "; ")
        ended = (held.display, held.pid, why)
        running = nil
        return (false, why)
    }

    /// Ends the server whatever its state, without a reset for a next test: the process is ending.
    package func end() {
        running?.end()
        running = nil
        isLeased = false
    }

    /// A lease's identity: unguessable enough that two clients never name each other's by mistake.
    private static func newID() -> String {
        "L-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
    }
}
