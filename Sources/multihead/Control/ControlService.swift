import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadServerControl
import MultiheadTesting
import MultiheadX11
import MultiheadProcess

/// What `multihead server` and `multihead run` answer on their control socket (`docs/control-socket.md`):
/// the leases of their X server and the command line's requests on it. The one owner of the server the
/// process runs: the lease a test holds, or none between `release` and the next `lease` (the server then
/// idle in the pool, reset and checked). Requests are answered one at a time, in the order they arrive.
@MainActor
final class ControlService {
    /// The protocol's version, which `hello` answers: a change that breaks a client changes it.
    static let protocolVersion = 1

    let kind: VirtualServer.Kind
    let glx: Bool
    /// The layout a `lease` without `monitors` gets: the one the server was started with.
    let defaultLayout: [VirtualServer.Monitor]
    /// The X server running now, leased or idle (nil when a release ended it and no lease started another).
    private(set) var running: VirtualServer?
    /// Whether a test holds `running` now (false between `release` and the next `lease`).
    private var isLeased: Bool
    /// The identity of the lease held now, which `lease` answers and requests may carry (`"lease"`): a
    /// request that names another lease is refused, so a test whose lease another took cannot act on the
    /// other's server. The first lease (the server as started) has one too, which no client is told.
    private var leaseID = ControlService.newLeaseID()
    /// How the lease held before the current one ended, for the refusal a request naming it gets.
    private var endedLeases: [String: String] = [:]
    /// The server a release ended rather than kept, and why: the next lease compares with it and says it.
    private var ended: (display: String, pid: Int32, reason: String)?

    /// Told the PID and status of an X server this service ran that ended (a signal, a crash); an end the
    /// service caused itself is not told.
    private let serverEnded: @Sendable (_ pid: Int32, _ status: Int32) -> Void
    /// The PID of the X server whose end is waited for: one wait per X server process, however many leases
    /// (each a `VirtualServer` of its own) it serves; cleared when that process ends, so that a new server
    /// given the same PID is waited for too.
    private var watched: Int32?

    /// Scales by screen name (`run --scale`): what `screens` answers with.
    let scaleFactors: [String: Double]

    /// The idle servers this process keeps beside the lease: one lease at a time needs no more than the
    /// servers of the last two layouts it asked for.
    nonisolated static let idleServerLimit = 2

    init(server: VirtualServer, options: ServerOptions, scaleFactors: [String: Double] = [:],
         serverEnded: @escaping @Sendable (_ pid: Int32, _ status: Int32) -> Void) throws {
        self.scaleFactors = scaleFactors
        // One lease at a time: nothing to spare a server for.
        VirtualServer.boundIdleServers(to: Self.idleServerLimit, sparingFor: 0)
        // The kind started, whatever decided it (a flag or the default): `hello` says it, leases start it.
        kind = server.kind
        glx = options.glx
        defaultLayout = try options.layout()
        running = server
        isLeased = true
        self.serverEnded = serverEnded
        watchRunning()
    }

    /// Whether the X server of this PID is the one running now: the end of another is no news.
    func isRunning(_ pid: Int32) -> Bool { running?.pid == pid }

    /// The answer to one request, as one line.
    func answer(_ request: ControlRequest) async -> [UInt8] {
        defer { watchRunning() }
        do {
            return ControlAnswer.success(try await perform(request), id: request.id).bytes
        } catch {
            return ControlAnswer.failure(Self.failure(error), id: request.id).bytes
        }
    }

    /// Waits for the end of the X server running now, once per X server process (a lease that replaced it
    /// with another is watched; a lease of the same process is not waited for twice: each wait holds a thread).
    private func watchRunning() {
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

    /// Ends the server whatever its state, without a reset for a next test: the process is ending.
    func end() {
        running?.end()
        running = nil
        isLeased = false
    }

    private func perform(_ request: ControlRequest) async throws -> [(key: String, value: JSONText)] {
        switch request.name {
        case .hello:
            return [("protocol", .int(Self.protocolVersion)), ("kind", .string(Self.kindName(kind))),
                    ("display", running.map { .string($0.display) } ?? .null), ("pid", running.map { .int(Int($0.pid)) } ?? .null),
                    ("leased", .bool(isLeased))]
        case .lease: return try await beginLease(request)
        case .release:
            _ = try leased(request)
            let (kept, reason) = endLease(because: "it was released")
            return [("kept", .bool(kept)), ("reason", reason.map(JSONText.string) ?? .null)]
        case .plug:
            var command = try parse(MultiheadCommand.Plug.self, request)
            command.identity.edid = try command.identity.edid.map { try Self.path($0, "edid", request) }
            try onServer(request) { try command.perform($0) }
            return []
        case .unplug:
            let command = try parse(MultiheadCommand.Unplug.self, request)
            try onServer(request) { try command.perform($0) }
            return []
        case .mode:
            let command = try parse(MultiheadCommand.Mode.self, request)
            let mode = try onServer(request) { try command.perform($0) }
            return [("name", .string(command.name)), ("mode", ScreenJSON.mode(mode).json)]
        case .screens:
            let screens = try onServer(request) { try $0.screens(scaleFactors: scaleFactors) }
            return [("screens", MultiheadCommand.Screens.rows(screens).json)]
        case .screenshot:
            var command = try parse(MultiheadCommand.Screenshot.self, request)
            command.output = try Self.path(command.output, "output", request)
            let size = try onServer(request) { try command.perform($0) }
            return [("output", .string(command.output)), ("width", .int(size.width)), ("height", .int(size.height))]
        case .pixel: return try pixel(request)
        }
    }

    /// Runs a request's work on the leased server's control connection as one bounded section: a server
    /// that is stopped, or held by another client's grab, makes it `notResponding` by the server's timeout
    /// counted from the request's arrival (but never less than `minimumTurn` of its own), so a request
    /// stuck behind another is not held past its bound, and the next request connects anew.
    private func onServer<T>(_ request: ControlRequest, _ body: (ServerControl) throws -> T) throws -> T {
        let server = try leased(request)
        let deadline = max(request.received + server.timeout, MonotonicClock.now() + Self.minimumTurn)
        let control = try server.controlConnection(until: deadline)
        return try control.bounded(until: deadline) { try body(control) }
    }

    /// The least time a request has on the X server once its turn comes, however long it waited for it.
    static let minimumTurn = 1.0

    /// A kind as the command line's flags and the pytest plugin spell it: xvfb, xorg-dummy, xorg.
    static func kindName(_ kind: VirtualServer.Kind) -> String {
        switch kind {
        case .xvfb: "xvfb"
        case .xorgDummy: "xorg-dummy"
        case .xorg: "xorg"
        }
    }

    /// The lease held now, when the request names none or names it; else `noLease`.
    private func leased(_ request: ControlRequest) throws -> VirtualServer {
        try checkLease(request)
        guard isLeased, let running else {
            throw CommandFailure(.noLease, message: "no lease is held: send {\"request\":\"lease\"} first")
        }
        return running
    }

    /// Refuses a request that names a lease other than the one held (`noLease`), saying how that one ended.
    private func checkLease(_ request: ControlRequest) throws {
        guard let named = request.lease, !(isLeased && named == leaseID) else { return }
        let how = endedLeases[named].map { "it ended: \($0)" } ?? "no lease of that name was given out"
        throw CommandFailure(.noLease, message: "\(request.name.rawValue): lease \"\(named.terminalEscaped)\" is not the one held now (\(how)); nothing was done")
    }

    /// A lease's identity: unguessable enough that two clients never name each other's by mistake.
    private static func newLeaseID() -> String {
        "L-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
    }

    /// The command a request stands for, checked by the command's own parser (its options, its refusals).
    private func parse<C: ParsableCommand>(_ command: C.Type, _ request: ControlRequest) throws -> C {
        let argv = try request.arguments()
        if let message = negativeGeometry(in: [request.name.rawValue] + argv) { throw UsageError(message: message) }
        if argv.contains(where: { $0 == "--display" || $0.hasPrefix("--display=") }) {
            throw UsageError(message: "the control socket acts on its own server: --display has no place in its requests")
        }
        do {
            return try C.parse(argv)
        } catch {
            throw UsageError(message: C.message(for: error))
        }
    }

    /// A path a request names, whole: as given when absolute, else within the request's `directory` (the
    /// client's working folder); a relative path without one is refused (the server's folder is not the client's).
    static func path(_ given: String, _ field: String, _ request: ControlRequest) throws -> String {
        if given.hasPrefix("/") { return given }
        guard let directory = request.fields["directory"]?.string, directory.hasPrefix("/") else {
            throw ControlRefusal(code: .invalidField,
                                 message: "\(request.name.rawValue): \"\(field)\" must be an absolute path, or come with \"directory\", the client's absolute working folder")
        }
        return directory + "/" + given
    }

    /// `lease`: ends the lease held (its clients closed, the server reset and checked), then leases the
    /// server again with the layout asked for; a server that could not be made fresh is replaced, and the
    /// answer says so.
    private func beginLease(_ request: ControlRequest) async throws -> [(key: String, value: JSONText)] {
        let layout: [VirtualServer.Monitor]
        if case .array(let sizes)? = request.fields["monitors"] {
            do {
                layout = try MonitorLayout.monitors(sizes.compactMap(\.string), kind: kind, label: "lease: \"monitors\"")
            } catch let e as ValidationError {
                throw ControlRefusal(code: .invalidField, message: e.message + " (a list of sizes such as [\"1920x1080\", \"1280x720\"])")
            }
        } else {
            layout = defaultLayout
        }
        let before = running.map { ($0.display, $0.pid) } ?? ended.map { ($0.display, $0.pid) }
        let (_, reason) = endLease(because: "a later lease replaced it")
        running = nil
        let next = try await VirtualServer.start(kind, monitors: layout, glx: glx)
        running = next
        isLeased = true
        leaseID = Self.newLeaseID()
        let replaced = before.map { $0.0 != next.display || $0.1 != next.pid } ?? true
        // Not ended but not taken again either: the layout needs a framebuffer the last server does not have.
        let why = reason ?? ended?.reason ?? "the layout asked for needs a server of another framebuffer size"
        ended = nil
        return [("lease", .string(leaseID)), ("display", .string(next.display)), ("xauthority", .string(next.authorityFile)), ("pid", .int(Int(next.pid))),
                ("warm", .bool(next.isWarm)), ("replaced", .bool(replaced)),
                ("reason", replaced ? .string(why) : .null)]
    }

    /// Ends the lease held, if any (`how` is what a request that still names it is told): true when the
    /// server went back to the pool; else the reason it was ended.
    private func endLease(because how: String) -> (kept: Bool, reason: String?) {
        guard isLeased, let held = running else { return (running != nil, running == nil ? ended?.reason ?? "no server is running" : nil) }
        isLeased = false
        // A bounded memory of ended leases: enough to tell a test what happened to its own.
        if endedLeases.count >= 64 { endedLeases.removeAll() }
        endedLeases[leaseID] = how
        held.stop()
        if held.wasPooled { return (true, nil) }
        let left = VirtualServer.lastPoolRefusal
        let why = left.isEmpty ? "the server could not be reset" : "a reset left: " + left.joined(separator: "; ")
        ended = (held.display, held.pid, why)
        running = nil
        return (false, why)
    }

    /// `pixel`: one pixel as #rrggbb, at a point of a screen (`screen`) or of the desktop.
    private func pixel(_ request: ControlRequest) throws -> [(key: String, value: JSONText)] {
        guard let x = request.fields["x"]?.int, let y = request.fields["y"]?.int, x >= 0, y >= 0 else {
            throw ControlRefusal(code: .invalidField, message: "pixel needs \"x\" and \"y\", whole numbers from 0")
        }
        let screen = request.fields["screen"]?.string
        let value: UInt32 = try onServer(request) { control in
            if let screen { return try control.pixel(x: x, y: y, on: screen) }
            let bitmap = try control.screenshot(of: Rect(x: Double(x), y: Double(y), width: 1, height: 1))
            guard let v = bitmap.pixel(x: 0, y: 0) else {
                throw ServerControlError.invalidInput("pixel (\(x), \(y)) outside the framebuffer")
            }
            return v
        }
        let (r, g, b) = (Int(value >> 16 & 0xFF), Int(value >> 8 & 0xFF), Int(value & 0xFF))
        let hex = String(format: "#%02x%02x%02x", r, g, b)
        return [("pixel", .string(hex)), ("red", .int(r)), ("green", .int(g)), ("blue", .int(b))]
    }

    /// What an error says to a client: the command line's status, code and reason.
    nonisolated static func failure(_ error: any Error) -> CommandFailure {
        if let e = error as? ValidationError { return CommandFailure(.usage, message: e.message) }
        return CommandFailure(error)
    }
}
