#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadServerControl
import MultiheadX11

/// The wayland kind: Xwayland inside Multihead's compositor. Its monitors are the compositor's outputs,
/// seen by X clients through Xwayland; it holds the compositor and which of its outputs each monitor is.
/// Never pooled: each start is a new compositor, which ends Xwayland with it.
@MainActor
final class CompositorImplementation: ServerKindImplementation {
    static var kind: VirtualServer.Kind { .wayland }
    static var isPoolable: Bool { false }
    nonisolated static var canTurnMonitors: Bool { true }
    static var defaultMonitors: [VirtualServer.Monitor] { [.init("DP-1", "1920x1080+0+0", primary: true)] }
    /// How long a change may take to reach Xwayland's RandR.
    nonisolated static let xwaylandBound = 5.0

    let compositor: WaylandServer
    /// A monitor's name → the compositor's output (DP-1…HDMI-8) and Xwayland's (XWAYLANDn).
    var outputs: [String: (wayland: String, x: String)] = [:]

    init(compositor: WaylandServer) {
        self.compositor = compositor
    }

    static func check(_ m: VirtualServer.Monitor) throws {
        if m.frame.width > 8192 || m.frame.height > 8192 || m.frame.width * m.frame.height > 7680 * 4320 {
            throw ServerControlError.invalidMonitor(
                "\(m.name.terminalEscaped) is \(Int(m.frame.width))x\(Int(m.frame.height)): the wayland kind's outputs are at most 8192 a side and 7680x4320 pixels")
        }
    }

    /// Starts the compositor with Xwayland ready, and plugs the layout.
    static func start(_ monitors: [VirtualServer.Monitor], framebuffer: Size, depth: Int, glx: Bool,
                      serverArguments: [String], pooledIn pool: ServerPool.Place?) async throws -> VirtualServer {
        guard depth == 24, serverArguments == (glx ? [] : ["-extension", "GLX"]) else {
            throw VirtualServerError.invalidOption("the wayland kind's Xwayland takes no depth but 24 and no server arguments")
        }
        let compositor = try await WaylandServer.start(xwayland: .eager)
        guard let display = compositor.display else {
            compositor.stop()
            throw VirtualServerError.didNotStart(binary: compositor.binary, log: "no Xwayland display (\(compositor.stderrTail))")
        }
        let server = VirtualServer(CompositorImplementation(compositor: compositor), display: display, process: compositor.process,
                                   authorityFile: XServerLauncher.authorityFile, serverAuthFile: "", framebuffer: framebuffer)
        do {
            try server.apply(monitors)
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    func environment(_ x: [String: String]) -> [String: String] {
        x.merging(compositor.environment) { own, _ in own }
    }

    func end(_ server: VirtualServer) {
        // The compositor ends Xwayland with it.
        server.control?.close()
        compositor.stop()
    }

    /// The output a monitor of this name is plugged as: its own when it was plugged, the name itself when it
    /// is a connector's that no monitor has, else the first connector no monitor has (nor names).
    func connector(for name: String) -> String? {
        if let plugged = outputs[name] { return plugged.wayland }
        let taken = Set(outputs.values.map(\.wayland))
        if VirtualServer.cabledOutputs.contains(name), !taken.contains(name) { return name }
        return VirtualServer.cabledOutputs.first { !taken.contains($0) && outputs[$0] == nil }
    }

    /// Plugs (or moves) a monitor as one of the compositor's outputs and waits until Xwayland shows it, named.
    func plug(_ name: String, frame: Rect, primary: Bool, refreshRate: Double?, physicalSize: Size?,
              identity: VirtualServer.MonitorIdentity?, rotation: MonitorRotation, on server: VirtualServer) throws {
        try MultiheadServerControl.ServerControl.validate(name: name)
        guard frame.isFinite, !frame.isEmpty else { throw ServerControlError.invalidMonitor("\(name.terminalEscaped) has no size") }
        guard let connector = connector(for: name) else {
            throw ServerControlError.invalidMonitor("the compositor's 16 outputs (DP-1…DP-8, HDMI-1…HDMI-8) are all plugged")
        }
        var mode = "mode=\(Int(frame.width))x\(Int(frame.height))"
        if let refreshRate { mode += "@\(refreshRate)" }
        var words = ["pos=\(Int(frame.minX)),\(Int(frame.minY))", "transform=" + rotation.waylandTransform]
        if let mm = identity?.physicalSize ?? physicalSize { words.append("size-mm=\(Int(mm.width.rounded()))x\(Int(mm.height.rounded()))") }
        if let identity {
            words += ["make=\(identity.manufacturer)", "model=\(identity.model)"]
            if let serial = identity.serialNumber { words.append("serial=\(serial)") }
        }
        let replugged = outputs[name] != nil
        do {
            try compositor.send(replugged ? ["mode", connector, mode, words[0], words[1]] : ["plug", connector, mode] + words)
        } catch {
            throw ServerControlError.invalidMonitor("\(name.terminalEscaped): \(error)")
        }
        // A monitor moved keeps its name: its RandR monitor follows the output.
        let known = outputs[name]?.x
        do {
            let c = try server.controlConnection()
            let shown = Rect(origin: frame.origin, size: rotation.turning(frame.size))
            guard let x = try c.waitForXwaylandOutput(at: shown, named: known, within: Self.xwaylandBound) else {
                throw VirtualServerError.commandFailed(command: "plug \(name) (\(connector))",
                                                       output: "Xwayland showed no output at \(shown) within \(Self.xwaylandBound) s")
            }
            if known == nil || primary { try c.nameOutput(x, as: name, primary: primary) }
            outputs[name] = (connector, x)
        } catch {
            // A new output that X clients cannot see by its name is taken out again, so that nothing of the
            // failed plug stays (the next plug may take the connector).
            if !replugged { _ = try? compositor.send(["unplug", connector]) }
            throw error
        }
    }

    /// Sets a monitor's mode: its output's, on the compositor.
    func setMode(_ name: String, width: Int, height: Int, refreshRate: Double?, rotation: MonitorRotation?,
                 on server: VirtualServer) throws -> ScreenMode {
        let c = try server.controlConnection()
        guard let plugged = outputs[name], let frame = c.monitorFrame(named: name) else {
            throw ScreenError.noSuchScreen(name.terminalEscaped)
        }
        // Kept as it is turned unless asked: as Xwayland shows it, so a turn an output manager made stays too.
        let turn = try rotation ?? c.outputRotation(plugged.x) ?? .normal
        try plug(name, frame: Rect(x: frame.minX, y: frame.minY, width: Double(width), height: Double(height)),
                 primary: false, refreshRate: refreshRate, physicalSize: nil, identity: nil, rotation: turn, on: server)
        return ScreenMode(width: width, height: height, refreshRate: refreshRate ?? 60)
    }

    /// Unplugs a monitor: its output is destroyed, Xwayland drops it, and its name goes (`keepPrimary` means
    /// nothing here).
    func unplug(_ name: String, keepPrimary: Bool, on server: VirtualServer) throws {
        guard let plugged = outputs[name] else { throw ScreenError.noSuchScreen(name.terminalEscaped) }
        do {
            try compositor.send(["unplug", plugged.wayland])
        } catch {
            throw ServerControlError.invalidMonitor("\(name.terminalEscaped): \(error)")
        }
        outputs[name] = nil
        let c = try server.controlConnection()
        // The output first: the monitor over it then shows no screen (its output is gone), so an app
        // sees one disconnect; deleting the name after that changes nothing it sees.
        guard try c.waitUntilXwaylandDropped(plugged.x, within: Self.xwaylandBound) else {
            throw VirtualServerError.commandFailed(command: "unplug \(name) (\(plugged.wayland))",
                                                   output: "Xwayland still shows \(plugged.x) after \(Self.xwaylandBound) s")
        }
        try c.deleteMonitor(name: name)
    }

    /// A monitor's pixels as the compositor shows them, once every X window's drawing so far reached it.
    func screenshot(of name: String, on server: VirtualServer) throws -> Bitmap {
        guard let plugged = outputs[name] else { throw ScreenError.noSuchScreen(name.terminalEscaped) }
        try settle(server)
        let path = try ServerRegistry.holdDirectory() + "/shot-\(UUID().uuidString.prefix(8)).ppm"
        defer {
            unlink(path)
            ServerRegistry.releaseDirectory()
        }
        do {
            try compositor.send(["screenshot", plugged.wayland, path, "format=ppm"])
        } catch {
            throw VirtualServerError.commandFailed(command: "screenshot \(name)", output: "\(error)")
        }
        guard let data = FileManager.default.contents(atPath: path), let bitmap = Self.bitmap(ppm: [UInt8](data)) else {
            throw VirtualServerError.commandFailed(command: "screenshot \(name)", output: "the compositor's picture could not be read")
        }
        return bitmap
    }

    /// One pixel of a monitor, read from the compositor's screenshot of it.
    func pixel(x: Int, y: Int, on screenName: String, of server: VirtualServer) throws -> UInt32 {
        let shot = try screenshot(of: screenName, on: server)
        guard let value = shot.pixel(x: x, y: y) else {
            throw ServerControlError.invalidInput("pixel (\(x), \(y)) outside \(screenName.terminalEscaped) (\(shot.width)×\(shot.height))")
        }
        return value
    }

    /// Waits until Xwayland has committed every X window's drawing to the compositor: Xwayland holds a
    /// window's damage until the frame callback of its last commit, so the compositor sends every callback
    /// now, then a round trip to Xwayland, whose commits go out before its reply (Compositor/README.md,
    /// `frame`). The first round trip lets the compositor's window manager read what came with the app's.
    private func settle(_ server: VirtualServer) throws {
        let c = try server.controlConnection()
        try c.roundTrip()
        do {
            try compositor.send(["frame"])
        } catch {
            throw VirtualServerError.commandFailed(command: "frame", output: "\(error)")
        }
        try c.roundTrip()
    }

    /// A binary PPM (P6, maxval 255) as a bitmap.
    nonisolated static func bitmap(ppm bytes: [UInt8]) -> Bitmap? {
        var fields: [Int] = [], i = 2
        guard bytes.starts(with: Array("P6".utf8)) else { return nil }
        while fields.count < 3 && i < bytes.count {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x09 || bytes[i] == 0x0D { i += 1 }
            var value = 0, digits = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39, digits < 9 {
                value = value * 10 + Int(bytes[i] - 0x30)
                i += 1
                digits += 1
            }
            guard digits > 0 else { return nil }
            fields.append(value)
        }
        // One whitespace byte ends the header.
        i += 1
        guard fields.count == 3, fields[2] == 255, fields[0] > 0, fields[1] > 0 else { return nil }
        let (w, h) = (fields[0], fields[1])
        guard bytes.count - i >= w * h * 3 else { return nil }
        var pixels = [UInt32](repeating: 0, count: w * h)
        for p in 0..<(w * h) {
            let o = i + p * 3
            pixels[p] = UInt32(bytes[o]) << 16 | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2])
        }
        return Bitmap(width: w, height: h, pixels: pixels)
    }
}
