import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadControl
import MultiheadTesting

/// What `multihead server --wayland` and `multihead run --wayland` answer on their control socket: the
/// leases of one Wayland compositor and the requests on it, decoded by the same declarations as on X
/// (`PlugRequest`, `ModeRequest`…) and said in the compositor's words (`compositorCommand()`). A lease
/// is the compositor's `reset` (its Wayland clients disconnected, every output unplugged, the pointer
/// home) and the lease's layout plugged, DP-1… then HDMI-1… left to right; a compositor that does not
/// answer is replaced by a new one.
@MainActor
package final class WaylandControlService: ControlServing {
    /// The leases, and the compositor they are on.
    package let session: LeaseSession<WaylandServer>
    /// The layout a `lease` without `monitors` gets: the one the server was started with.
    package let defaultLayout: [VirtualServer.Monitor]
    /// Scales by output name (`run --scale`): factors from 1 to 4 become the output's scale when it is
    /// plugged without one.
    package let scaleFactors: [String: Double]

    /// Serves `server`, plugging `layout` as the first lease's.
    package init(server: WaylandServer, layout: [VirtualServer.Monitor], scaleFactors: [String: Double] = [:],
                 serverEnded: @escaping @Sendable (_ pid: Int32, _ status: Int32) -> Void) throws {
        session = LeaseSession(server: server, serverEnded: serverEnded)
        defaultLayout = layout
        self.scaleFactors = scaleFactors
        try plugLayout(layout, on: server)
        session.watchRunning()
    }

    /// The compositor running now, leased or idle.
    package var compositor: WaylandServer? { session.running }

    /// "the Wayland compositor wayland-0", while one runs (the message that names it adds its PID).
    package var runningDescription: String? { compositor.map { "the Wayland compositor \($0.waylandDisplay)" } }

    /// Whether `pid` is the compositor running now.
    package func isRunning(_ pid: Int32) -> Bool { compositor?.pid == pid }

    /// Ends the compositor (its clients, Xwayland and its folder with it): the process is ending.
    package func end() { session.end() }

    /// The answer to one request, as one line.
    package func answer(_ request: ControlRequest) async -> [UInt8] {
        defer { session.watchRunning() }
        return await ControlAnswer.line(request) { try await perform(request) }
    }

    private func perform(_ request: ControlRequest) async throws -> any ControlAnswerBody {
        switch request.name {
        case .hello:
            return HelloAnswer(protocolVersion: ControlService.protocolVersion, kind: VirtualServer.Kind.wayland.name, display: compositor?.display,
                               waylandDisplay: .some(compositor?.waylandDisplay),
                               xwayland: compositor.map { $0.xwaylandUnavailable ? "unavailable" : "lazy" }, pid: compositor?.pid,
                               leased: session.isLeased)
        case .lease: return try await lease(request)
        case .release:
            _ = try held(request)
            let (kept, reason) = session.release(because: "it was released")
            return ReleaseAnswer(kept: kept, reason: reason)
        case .plug:
            var plug = try request.decode(PlugRequest.self)
            if plug.scale == nil { plug.scale = runScale(plug.name) }
            let answer = try held(request).send(try plug.compositorCommand())
            return ChangeAnswer(configurationSerial: try Self.serial(answer, of: "plug"))
        case .unplug:
            let unplug = try request.decode(UnplugRequest.self)
            let answer = try held(request).send(["unplug", unplug.name])
            return ChangeAnswer(configurationSerial: try Self.serial(answer, of: "unplug"))
        case .mode:
            let change = try request.decode(ModeRequest.self)
            let answer = try held(request).send(change.compositorCommand())
            guard let screen = ScreenJSON(compositorOutput: try Self.json(answer, of: "mode"), isMain: false),
                  let mode = screen.currentMode else { throw WaylandServerError.malformedAnswer(command: "mode", answer: answer) }
            return ModeAnswer(name: change.name, mode: mode, configurationSerial: try Self.serial(answer, of: "mode"))
        case .screens:
            let (screens, serial) = try configuration(held(request))
            return ScreensAnswer(screens: screens, configurationSerial: serial)
        case .screenshot:
            let shot = try request.decode(ScreenshotRequest.self)
            let answer = try held(request).send(["screenshot", shot.screen ?? "layout", shot.output.path, "format=png"])
            let v = try Self.json(answer, of: "screenshot")
            guard let w = v["width"]?.int, let h = v["height"]?.int else {
                throw WaylandServerError.malformedAnswer(command: "screenshot", answer: answer)
            }
            return ScreenshotAnswer(output: shot.output.path, width: w, height: h)
        case .pixel:
            let pixel = try request.decode(PixelRequest.self)
            let answer = try held(request).send(["pixel", pixel.screen ?? "layout", String(pixel.x), String(pixel.y)])
            guard answer.hasPrefix("#"), answer.count == 7, let value = UInt32(answer.dropFirst(), radix: 16) else {
                throw WaylandServerError.malformedAnswer(command: "pixel", answer: answer)
            }
            return PixelAnswer(value)
        case .windows:
            return WindowsAnswer(windows: try windows(held(request)))
        case .move_window:
            let move = try request.decode(MoveWindowRequest.self)
            return WindowAnswer(window: try place(move.compositorCommand(), held(request)))
        case .fullscreen_window:
            let full = try request.decode(FullscreenWindowRequest.self)
            // "off" is the compositor's word for leaving fullscreen, never an output's name.
            if full.screen == "off" { throw ScreenError.noSuchScreen("off") }
            return WindowAnswer(window: try place(["fullscreen-window", String(full.window), full.screen], held(request)))
        }
    }

    /// The outputs as `multihead screens --json` lists screens (in plug order, the first main), with the
    /// configuration serial they are: the compositor's `configuration`, one answer.
    package func configuration(_ compositor: WaylandServer) throws -> (screens: [ScreenJSON], serial: Int) {
        let answer = try compositor.send(["configuration"])
        let v = try Self.json(answer, of: "configuration")
        guard case .array(let items)? = v["outputs"], let serial = v["configurationSerial"]?.int else {
            throw WaylandServerError.malformedAnswer(command: "configuration", answer: answer)
        }
        let screens = try items.enumerated().map { i, item in
            guard let s = ScreenJSON(compositorOutput: item, isMain: i == 0) else {
                throw WaylandServerError.malformedAnswer(command: "configuration", answer: answer)
            }
            return s
        }
        return (screens, serial)
    }

    /// The configuration serial a change's answer carries (`plug`, `mode`, `unplug`).
    static func serial(_ answer: String, of command: String) throws -> Int {
        guard let serial = try json(answer, of: command)["configurationSerial"]?.int else {
            throw WaylandServerError.malformedAnswer(command: command, answer: answer)
        }
        return serial
    }

    /// `run --scale`'s factor for an output, when it is a scale the compositor takes (1…4).
    private func runScale(_ name: String) -> Double? {
        guard let f = scaleFactors[name], outputScales.contains(f) else { return nil }
        return f
    }

    /// The compositor of the lease held, when `request` names none or names it; else `noLease`.
    func held(_ request: ControlRequest) throws -> WaylandServer {
        try session.held(naming: request.lease, for: request.name.rawValue)
    }

    /// `lease`: ends the lease held, then plugs the layout asked for into the reset compositor (a new one
    /// when the last could not be reset).
    private func lease(_ request: ControlRequest) async throws -> LeaseAnswer {
        let layout: [VirtualServer.Monitor]
        if let sizes = try request.decode(LeaseRequest.self).monitors {
            do {
                layout = try MonitorLayout.monitors(sizes, kind: .xorg, label: "lease: \"monitors\"")
            } catch let e as ValidationError {
                throw ControlRefusal(code: .invalidField, message: e.message + " (a list of sizes such as [\"1920x1080\", \"1280x720\"])")
            }
        } else {
            layout = defaultLayout
        }
        // A layout the compositor cannot show is refused while the lease held is still as it was.
        try VirtualServer.checkLayout(.wayland, monitors: layout)
        let grant = try await session.lease { kept in
            let running: WaylandServer
            if let kept { running = kept } else { running = try await WaylandServer.start() }
            do {
                try self.plugLayout(layout, on: running)
                return (running, kept == nil ? "the compositor had ended" : nil)
            } catch let e as WaylandServerError where e.compositorCode == nil {
                // Not answering, or ended: a new compositor, once.
                running.stop()
                let next = try await WaylandServer.start()
                try self.plugLayout(layout, on: next)
                return (next, "it did not take the layout: \(e)")
            }
        }
        let now = grant.server
        return LeaseAnswer(lease: grant.id, address: .wayland(waylandDisplay: now.waylandDisplay, runtimeDirectory: now.runtimeDirectory,
                                                              display: now.display),
                           pid: now.pid, warm: !grant.replaced, replaced: grant.replaced, reason: grant.reason)
    }

    /// Plugs a layout's monitors, left to right, with `run --scale`'s factors.
    private func plugLayout(_ layout: [VirtualServer.Monitor], on compositor: WaylandServer) throws {
        for m in layout {
            var words = ["plug", m.name, "mode=\(Int(m.frame.width))x\(Int(m.frame.height))", "pos=\(Int(m.frame.minX)),\(Int(m.frame.minY))"]
            if let s = runScale(m.name) { words.append("scale=" + PlugRequest.decimal(s)) }
            try compositor.send(words)
        }
    }

    /// An answer's JSON.
    static func json(_ answer: String, of command: String) throws -> JSONValue {
        guard let v = JSONValue.parse(Array(answer.utf8)) else { throw WaylandServerError.malformedAnswer(command: command, answer: answer) }
        return v
    }

}
