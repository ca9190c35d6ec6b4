import Multihead
import MultiheadControl
import MultiheadTesting

/// A server a lease is held on: the kit's X server or Multihead's compositor.
@MainActor
package protocol LeasableServer: AnyObject {
    /// The server process.
    var pid: Int32 { get }
    /// Where clients reach it (a display name or a Wayland socket name): with the PID, what tells one
    /// server from the next.
    var address: String { get }
    /// Ends a lease on it: nil when it can serve the next lease (reset, kept), else why it was ended.
    func endLease() -> String?
    /// Ends it whatever its state, without a reset: the process is ending.
    func endNow()
    /// Waits for its process to end; its status (128 + a signal when one ended it).
    func waitForExit() async -> Int32
}

/// The leases of one `multihead server`: the one owner of which lease is held, on which server, how the
/// earlier ones ended, and why a server was not kept. A lease is a test's hold on the server: `lease`
/// ends the one held (its clients closed, the server reset) and gives out the next, with an identity
/// requests may name so that a test never acts on a server another test now holds.
@MainActor
package final class LeaseSession<Server: LeasableServer> {
    /// The server running now, leased or idle (nil when a release ended it and no lease started another).
    package private(set) var running: Server?
    /// Whether a test holds `running` now (false between `release` and the next `lease`).
    package private(set) var isLeased: Bool
    /// The identity of the lease held now. The first lease (the server as started) has one too, which no
    /// client is told.
    package private(set) var id = newLeaseID()
    /// How the leases before the current one ended, for the refusal a request naming one gets.
    private var endedLeases: [String: String] = [:]
    /// The server a release ended rather than kept, and why: the next lease compares with it and says it.
    private var ended: (address: String, pid: Int32, reason: String)?
    /// Told the PID and status of a server the session ran that ended by itself (a signal, a crash).
    private let serverEnded: @Sendable (_ pid: Int32, _ status: Int32) -> Void
    /// The PID whose end is waited for: one wait per server process, however many leases it serves;
    /// cleared when that process ends, so that a new server given the same PID is waited for too.
    private var watched: Int32?

    /// A session whose first lease is held on `server`, as started; `serverEnded` hears of a server's end.
    package init(server: Server, serverEnded: @escaping @Sendable (_ pid: Int32, _ status: Int32) -> Void) {
        running = server
        isLeased = true
        self.serverEnded = serverEnded
    }

    /// Waits for the end of the server running now, once per process (a lease that replaced it with
    /// another is watched; a lease of the same process is not waited for twice: each wait holds a thread).
    package func watchRunning() {
        guard let running, running.pid != watched else { return }
        let pid = running.pid
        watched = pid
        let ended = serverEnded
        Task { @MainActor in
            let status = await running.waitForExit()
            if self.watched == pid { self.watched = nil }
            ended(pid, status)
        }
    }

    /// What a new lease gives out.
    package struct Grant {
        package var id: String
        package var server: Server
        /// Whether it is another server than the last lease's (another address or process).
        package var replaced: Bool
        /// Why it was replaced (nil when it was not).
        package var reason: String?
    }

    /// The server of the lease held, when `named` is nil or names it; else `noLease` saying how the named
    /// one ended.
    package func held(naming named: String?, for request: String) throws(CommandFailure) -> Server {
        if let named, !(isLeased && named == id) {
            let how = endedLeases[named].map { "it ended: \($0)" } ?? "no lease of that name was given out"
            throw CommandFailure(.noLease, message: "\(request): lease \"\(named.terminalEscaped)\" is not the one held now (\(how)); nothing was done")
        }
        guard isLeased, let running else {
            throw CommandFailure(.noLease, message: "no lease is held: send {\"request\":\"lease\"} first")
        }
        return running
    }

    /// Ends the lease held and starts the next on the server `start` gives: it is handed the server the
    /// release kept (nil when there was none, or it was ended) and gives the one to lease, with `why` a
    /// replacement needs no other reason for (nil: the session's own).
    package func lease(start: @MainActor (_ kept: Server?) async throws -> (server: Server, why: String?)) async throws -> Grant {
        let before = running.map { ($0.address, $0.pid) } ?? ended.map { ($0.address, $0.pid) }
        let (kept, reason) = release(because: "a later lease replaced it")
        let keptServer = kept ? running : nil
        running = nil
        let (next, why) = try await start(keptServer)
        running = next
        isLeased = true
        id = newLeaseID()
        let replaced = before.map { $0.0 != next.address || $0.1 != next.pid } ?? true
        // Not ended but not taken again either: the layout needs a framebuffer the last server does not have.
        let because = why ?? reason ?? ended?.reason ?? "the layout asked for needs a server of another framebuffer size"
        ended = nil
        return Grant(id: id, server: next, replaced: replaced, reason: replaced ? because : nil)
    }

    /// Ends the lease held, if any (`how` is what a request that still names it is told): kept when the
    /// server can serve the next; else the reason it was ended.
    package func release(because how: String) -> (kept: Bool, reason: String?) {
        guard isLeased, let held = running else { return (running != nil, running == nil ? ended?.reason ?? "no server is running" : nil) }
        isLeased = false
        // A bounded memory of ended leases: enough to tell a test what happened to its own.
        if endedLeases.count >= 64 { endedLeases.removeAll() }
        endedLeases[id] = how
        guard let why = held.endLease() else { return (true, nil) }
        ended = (held.address, held.pid, why)
        running = nil
        return (false, why)
    }

    /// Ends the server whatever its state, without a reset for a next test: the process is ending.
    package func end() {
        running?.endNow()
        running = nil
        isLeased = false
    }
}

/// A lease's identity: unguessable enough that two clients never name each other's by mistake.
private func newLeaseID() -> String {
    "L-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
}

extension VirtualServer: LeasableServer {
    /// The display name.
    package var address: String { display }

    /// Stops it: back to the pool when it was reset and found fresh, else ended with what the reset left.
    package func endLease() -> String? {
        stop()
        if wasPooled { return nil }
        let left = poolRefusal
        return left.isEmpty ? "the server could not be reset" : "a reset left: " + left.joined(separator: "; ")
    }

    /// Ends it at once.
    package func endNow() { end() }
}

extension WaylandServer: LeasableServer {
    /// The Wayland socket's name.
    package var address: String { waylandDisplay }

    /// The compositor's `reset` (its Wayland clients disconnected, every output unplugged, the pointer
    /// home); a compositor whose reset fails is stopped.
    package func endLease() -> String? {
        do {
            try send(["reset"])
            return nil
        } catch {
            stop()
            return "its reset failed: \(error)"
        }
    }

    /// Stops it at once.
    package func endNow() { stop() }
}
