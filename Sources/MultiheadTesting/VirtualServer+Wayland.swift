#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadServerControl
import MultiheadX11

/// What the wayland kind adds to a server: the compositor Xwayland runs in, and which of its outputs each
/// monitor is.
struct CompositorHost {
    let compositor: WaylandServer
    /// A monitor's name → the compositor's output (DP-1…HDMI-8) and Xwayland's (XWAYLANDn).
    var outputs: [String: (wayland: String, x: String)] = [:]

    /// The output a monitor of this name is plugged as: its own when it was plugged, the name itself when it
    /// is a connector's that no monitor has, else the first connector no monitor has (nor names).
    func connector(for name: String) -> String? {
        if let plugged = outputs[name] { return plugged.wayland }
        let taken = Set(outputs.values.map(\.wayland))
        if VirtualServer.cabledOutputs.contains(name), !taken.contains(name) { return name }
        return VirtualServer.cabledOutputs.first { !taken.contains($0) && outputs[$0] == nil }
    }
}

/// The wayland kind: monitors are the compositor's outputs, seen by X clients through Xwayland.
extension VirtualServer {
    /// How long a change may take to reach Xwayland's RandR.
    nonisolated static let xwaylandBound = 5.0

    /// Starts the compositor with Xwayland ready, and plugs the layout.
    static func startOnCompositor(_ monitors: [Monitor], framebuffer: Size) async throws -> VirtualServer {
        let compositor = try await WaylandServer.start(xwayland: .eager)
        guard let display = compositor.display else {
            compositor.stop()
            throw VirtualServerError.didNotStart(binary: compositor.binary, log: "no Xwayland display (\(compositor.stderrTail))")
        }
        let server = VirtualServer(kind: .wayland, display: display, process: compositor.process,
                                   authorityFile: XServerLauncher.authorityFile, serverAuthFile: "", framebuffer: framebuffer)
        server.host = CompositorHost(compositor: compositor)
        do {
            try server.apply(monitors)
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    /// Plugs (or moves) a monitor as one of the compositor's outputs and waits until Xwayland shows it, named.
    func plugOnCompositor(_ host: CompositorHost, _ name: String, frame: Rect, primary: Bool, refreshRate: Double?,
                          physicalSize: Size?, identity: MonitorIdentity?) throws {
        try MultiheadServerControl.ServerControl.validate(name: name)
        guard frame.isFinite, !frame.isEmpty else { throw ServerControlError.invalidMonitor("\(name.terminalEscaped) has no size") }
        guard let connector = host.connector(for: name) else {
            throw ServerControlError.invalidMonitor("the compositor's 16 outputs (DP-1…DP-8, HDMI-1…HDMI-8) are all plugged")
        }
        var mode = "mode=\(Int(frame.width))x\(Int(frame.height))"
        if let refreshRate { mode += "@\(refreshRate)" }
        var words = ["pos=\(Int(frame.minX)),\(Int(frame.minY))"]
        if let mm = identity?.physicalSize ?? physicalSize { words.append("size-mm=\(Int(mm.width.rounded()))x\(Int(mm.height.rounded()))") }
        if let identity {
            words += ["make=\(identity.manufacturer)", "model=\(identity.model)"]
            if let serial = identity.serialNumber { words.append("serial=\(serial)") }
        }
        let replugged = host.outputs[name] != nil
        do {
            try host.compositor.send(replugged ? ["mode", connector, mode, words[0]] : ["plug", connector, mode] + words)
        } catch {
            throw ServerControlError.invalidMonitor("\(name.terminalEscaped): \(error)")
        }
        // A monitor moved keeps its name: its RandR monitor follows the output.
        let known = host.outputs[name]?.x
        do {
            let c = try controlConnection()
            guard let x = try c.waitForXwaylandOutput(at: frame, named: known, within: Self.xwaylandBound) else {
                throw VirtualServerError.commandFailed(command: "plug \(name) (\(connector))",
                                                       output: "Xwayland showed no output at \(frame) within \(Self.xwaylandBound) s")
            }
            if known == nil || primary { try c.nameOutput(x, as: name, primary: primary) }
            self.host?.outputs[name] = (connector, x)
        } catch {
            // A new output that X clients cannot see by its name is taken out again, so that nothing of the
            // failed plug stays (the next plug may take the connector).
            if !replugged { _ = try? host.compositor.send(["unplug", connector]) }
            throw error
        }
    }

    /// Sets a monitor's mode: its output's, on the compositor.
    func setModeOnCompositor(_ host: CompositorHost, _ name: String, width: Int, height: Int, refreshRate: Double?) throws -> ScreenMode {
        guard host.outputs[name] != nil, let frame = try controlConnection().monitorFrame(named: name) else {
            throw ScreenError.noSuchScreen(name.terminalEscaped)
        }
        try plugOnCompositor(host, name, frame: Rect(x: frame.minX, y: frame.minY, width: Double(width), height: Double(height)),
                             primary: false, refreshRate: refreshRate, physicalSize: nil, identity: nil)
        return ScreenMode(width: width, height: height, refreshRate: refreshRate ?? 60)
    }

    /// Unplugs a monitor: its output is destroyed, Xwayland drops it, and its name goes.
    func unplugOnCompositor(_ host: CompositorHost, _ name: String) throws {
        guard let plugged = host.outputs[name] else { throw ScreenError.noSuchScreen(name.terminalEscaped) }
        do {
            try host.compositor.send(["unplug", plugged.wayland])
        } catch {
            throw ServerControlError.invalidMonitor("\(name.terminalEscaped): \(error)")
        }
        self.host?.outputs[name] = nil
        let c = try controlConnection()
        // The output first: the monitor over it then shows no screen (its output is gone), so an app
        // sees one disconnect; deleting the name after that changes nothing it sees.
        guard try c.waitUntilXwaylandDropped(plugged.x, within: Self.xwaylandBound) else {
            throw VirtualServerError.commandFailed(command: "unplug \(name) (\(plugged.wayland))",
                                                   output: "Xwayland still shows \(plugged.x) after \(Self.xwaylandBound) s")
        }
        try c.deleteMonitor(name: name)
    }

    /// A monitor's pixels as the compositor shows them, once every X window's drawing so far reached it.
    func screenshotOnCompositor(_ host: CompositorHost, _ name: String) throws -> Bitmap {
        guard let plugged = host.outputs[name] else { throw ScreenError.noSuchScreen(name.terminalEscaped) }
        try settle(host)
        let path = try ServerRegistry.holdDirectory() + "/shot-\(UUID().uuidString.prefix(8)).ppm"
        defer {
            unlink(path)
            ServerRegistry.releaseDirectory()
        }
        do {
            try host.compositor.send(["screenshot", plugged.wayland, path, "format=ppm"])
        } catch {
            throw VirtualServerError.commandFailed(command: "screenshot \(name)", output: "\(error)")
        }
        guard let data = FileManager.default.contents(atPath: path), let bitmap = Self.bitmap(ppm: [UInt8](data)) else {
            throw VirtualServerError.commandFailed(command: "screenshot \(name)", output: "the compositor's picture could not be read")
        }
        return bitmap
    }

    /// Waits until Xwayland has committed every X window's drawing to the compositor: Xwayland holds a
    /// window's damage until the frame callback of its last commit, so the compositor sends every callback
    /// now, then a round trip to Xwayland, whose commits go out before its reply (Compositor/README.md,
    /// `frame`). The first round trip lets the compositor's window manager read what came with the app's.
    private func settle(_ host: CompositorHost) throws {
        let c = try controlConnection()
        try c.roundTrip()
        do {
            try host.compositor.send(["frame"])
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
