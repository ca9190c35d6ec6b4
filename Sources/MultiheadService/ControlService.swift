import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadControl
import MultiheadProcess
import MultiheadServerControl
import MultiheadTesting
import MultiheadX11

/// What `multihead server` and `multihead run` answer on their control socket (`docs/control-socket.md`):
/// the leases of their X server (`LeaseSession`) and the requests on it, each decoded into its value by
/// its declaration (`RequestDeclaration`) and that value performed on the server. Requests are answered one at a time, in the
/// order they arrive.
@MainActor
package final class ControlService {
    /// The protocol's version, which `hello` answers: a change that breaks a client changes it.
    package static let protocolVersion = 2

    package let kind: VirtualServer.Kind
    package let glx: Bool
    /// The layout a `lease` without `monitors` gets: the one the server was started with.
    package let defaultLayout: [VirtualServer.Monitor]
    /// The leases, and the server they are on.
    package let session: LeaseSession<VirtualServer>
    /// The pool the leases' servers are taken from and handed back to.
    private let pool: ServerPool
    /// Scales by screen name (`run --scale`): what `screens` answers with.
    package let scaleFactors: [String: Double]
    /// Whether a lease gets a window manager when it does not ask for one (`--wm`).
    package let windowManagerByDefault: Bool
    /// The window manager of the lease held, when it has one.
    private var windowManager: WindowManager?

    /// The idle servers this process keeps beside the lease: one lease at a time needs no more than the
    /// servers of the last two layouts it asked for.
    package nonisolated static let idleServerLimit = 2

    /// The pool a service's servers come from: at most `idleServerLimit` idle, none spared (one lease at a
    /// time: nothing to spare a server for).
    package static func makePool() -> ServerPool { ServerPool(idleLimit: idleServerLimit, spareFor: 0) }

    /// Serves `server`, leased from `pool` (`makePool()`); with `windowManager`, each lease (the first, as
    /// started, too) gets openbox.
    package init(server: VirtualServer, pool: ServerPool, layout: [VirtualServer.Monitor], glx: Bool, scaleFactors: [String: Double] = [:],
                 windowManager: Bool = false, serverEnded: @escaping @Sendable (_ pid: Int32, _ status: Int32) -> Void) throws {
        self.scaleFactors = scaleFactors
        self.pool = pool
        windowManagerByDefault = windowManager
        if windowManager { self.windowManager = try WindowManager.start(on: server) }
        // The kind started, whatever decided it (a flag or the default): `hello` says it, leases start it.
        kind = server.kind
        self.glx = glx
        defaultLayout = layout
        session = LeaseSession(server: server, serverEnded: serverEnded)
        session.watchRunning()
    }

    /// The X server running now, leased or idle.
    package var running: VirtualServer? { session.running }

    /// Whether the X server of this PID is the one running now: the end of another is no news.
    package func isRunning(_ pid: Int32) -> Bool { session.running?.pid == pid }

    /// The answer to one request, as one line.
    package func answer(_ request: ControlRequest) async -> [UInt8] {
        defer { session.watchRunning() }
        return await ControlAnswer.line(request) { try await perform(request) }
    }

    /// Ends the server whatever its state, without a reset for a next test: the process is ending.
    package func end() {
        endWindowManager()
        session.end()
    }

    /// Ends the lease's window manager before its server is reset or ended (the reset would close it as
    /// one more client, and its process is this one's to reap).
    private func endWindowManager() {
        windowManager?.stop()
        windowManager = nil
    }

    private func perform(_ request: ControlRequest) async throws -> any ControlAnswerBody {
        switch request.name {
        case .hello:
            let running = session.running
            return HelloAnswer(protocolVersion: Self.protocolVersion, kind: kind.name, display: running?.display,
                               pid: running?.pid, leased: session.isLeased)
        case .lease: return try await lease(request)
        case .release:
            _ = try session.held(naming: request.lease, for: request.name.rawValue)
            endWindowManager()
            let (kept, reason) = session.release(because: "it was released")
            return ReleaseAnswer(kept: kept, reason: reason)
        case .plug:
            let plug = try request.decode(PlugRequest.self)
            try refuseTurn(plug.rotation)
            let serial = try onServer(request) { control in try control.changing { try plug.perform(control) }.serial }
            return ChangeAnswer(configurationSerial: Int(serial))
        case .unplug:
            let unplug = try request.decode(UnplugRequest.self)
            let serial = try onServer(request) { control in
                // Under the lease's window manager, a window left on the monitor unplugged goes to the main
                // screen that remains, as a desktop moves it (openbox alone leaves it at the new edge).
                let gone = windowManager == nil ? nil : try control.screens().first { $0.name == unplug.name }?.frame
                let stranded = gone == nil ? [] : try control.windows().filter { $0.screen == unplug.name }
                let serial = try control.changing { try unplug.perform(control) }.serial
                if let gone { try control.rehome(stranded, from: gone, within: placementBound(request)) }
                return serial
            }
            return ChangeAnswer(configurationSerial: Int(serial))
        case .mode:
            let change = try request.decode(ModeRequest.self)
            try refuseTurn(change.rotation)
            let (mode, serial) = try onServer(request) { control in try control.changing { try change.perform(control) } }
            return ModeAnswer(name: change.name, mode: ScreenJSON.mode(mode), configurationSerial: Int(serial))
        case .screens:
            let (screens, serial) = try onServer(request) { try $0.configuration(scaleFactors: scaleFactors) }
            return ScreensAnswer(screens: ScreenJSON.rows(screens), configurationSerial: Int(serial))
        case .screenshot:
            let shot = try request.decode(ScreenshotRequest.self)
            let size = try onServer(request) { try shot.perform($0) }
            return ScreenshotAnswer(output: shot.output.path, width: size.width, height: size.height)
        case .pixel:
            let pixel = try request.decode(PixelRequest.self)
            return PixelAnswer(try onServer(request) { try pixel.perform($0) })
        case .windows:
            return WindowsAnswer(windows: try onServer(request) { try $0.windows() }.map(WindowJSON.init))
        case .move_window:
            let move = try request.decode(MoveWindowRequest.self)
            return WindowAnswer(window: WindowJSON(try onServer(request) { try move.perform($0, within: placementBound(request)) }))
        case .fullscreen_window:
            let full = try request.decode(FullscreenWindowRequest.self)
            return WindowAnswer(window: WindowJSON(try onServer(request) { try full.perform($0, within: placementBound(request)) }))
        }
    }

    /// A turned monitor where the kind cannot turn one: a mistake in the request, said with the kind's name
    /// (Xvfb's monitors are regions of its framebuffer; the dummy driver's CRTCs offer no rotation).
    private func refuseTurn(_ rotation: MonitorRotation?) throws {
        if let refusal = kind.refusal(toTurn: rotation) { throw UsageError(message: "--rotation: " + refusal) }
    }

    /// Runs a request's work on the leased server's control connection as one bounded section: a server
    /// that is stopped, or held by another client's grab, makes it `notResponding` by the server's timeout
    /// counted from the request's arrival (but never less than `minimumTurn` of its own), so a request
    /// stuck behind another is not held past its bound, and the next request connects anew.
    private func onServer<T>(_ request: ControlRequest, _ body: (ServerControl) throws -> T) throws -> T {
        let server = try session.held(naming: request.lease, for: request.name.rawValue)
        let deadline = max(request.received + server.timeout, MonotonicClock.now() + Self.minimumTurn)
        let control = try server.controlConnection(until: deadline)
        return try control.bounded(until: deadline) { try body(control) }
    }

    /// How long a window manager is given to place a window: what is left of the request's bound, less a
    /// margin for the reads after it (past the bound, the connection is cut and the request fails).
    private func placementBound(_ request: ControlRequest) -> Double {
        let timeout = session.running?.timeout ?? 5
        return max(Self.minimumTurn / 2, request.received + timeout - MonotonicClock.now() - 1)
    }

    /// The least time a request has on the X server once its turn comes, however long it waited for it.
    package static let minimumTurn = 1.0

    /// `lease`: ends the lease held, then leases the server again with the layout asked for; a server that
    /// could not be made fresh is replaced, and the answer says so.
    private func lease(_ request: ControlRequest) async throws -> LeaseAnswer {
        let asked = try request.decode(LeaseRequest.self)
        // An empty list or entry is MonitorLayout's to refuse, with its reason (`invalidField`), as
        // `--monitors` refuses it.
        let layout: [VirtualServer.Monitor]
        if let sizes = asked.monitors {
            do {
                layout = try MonitorLayout.monitors(sizes, kind: kind, label: "lease: \"monitors\"")
            } catch let e as ValidationError {
                throw ControlRefusal(code: .invalidField, message: e.message + " (a list of sizes such as [\"1920x1080\", \"1280x720\"])")
            }
        } else {
            layout = defaultLayout
        }
        let (kind, glx, pool) = (kind, glx, pool)
        // A layout the kind cannot show is refused while the lease held is still as it was.
        try VirtualServer.checkLayout(kind, monitors: layout)
        let wantsWindowManager = asked.wm ?? windowManagerByDefault
        if wantsWindowManager, WindowManager.binary == nil {
            throw VirtualServerError.notInstalled(binary: "openbox", package: "openbox")
        }
        endWindowManager()
        // A server the release kept went back to the pool, which the start takes it from.
        let grant = try await session.lease { _ in (try await VirtualServer.start(kind, monitors: layout, glx: glx, pool: pool), nil) }
        let next = grant.server
        if wantsWindowManager {
            do {
                windowManager = try WindowManager.start(on: next)
            } catch {
                // No lease without what it asked for: the server goes back as a release leaves it.
                _ = session.release(because: "its window manager did not start")
                throw error
            }
        }
        return LeaseAnswer(lease: grant.id, address: .x(display: next.display, xauthority: next.authorityFile), pid: next.pid,
                           warm: next.isWarm, replaced: grant.replaced, reason: grant.reason)
    }

    /// What an error says to a client: the command line's status, code and reason.
    package nonisolated static func failure(_ error: any Error) -> CommandFailure {
        CommandFailure.answering(error)
    }
}
