import Foundation
import Multihead
import MultiheadServerControl

/// One kind of server as one contract: how it starts, what its layouts may hold, what it can do, and how a
/// plug, unplug, mode change or screenshot is carried out on it. `VirtualServer` delegates to its
/// implementation instead of asking which kind it is; each `VirtualServer.Kind` has exactly one
/// (`XvfbImplementation`, `XorgImplementation`, `XorgDummyImplementation`, `CompositorImplementation`).
/// The X kinds share the X defaults below (changes through the kit's `ServerControl` connection); the
/// compositor's overrides them.
@MainActor
protocol ServerKindImplementation {
    /// The kind it implements.
    static var kind: VirtualServer.Kind { get }
    /// Whether `stop()` may hand its servers to the pool (an X server the kit can read and reset).
    static var isPoolable: Bool { get }
    /// Whether its monitors can turn (`MonitorRotation`: a portrait monitor): Multihead's driver's CRTCs and
    /// the compositor's outputs can; Xvfb's virtual monitors and the dummy driver's CRTCs cannot.
    nonisolated static var canTurnMonitors: Bool { get }
    /// Whether its server runs under a supervising shell (Xorg): the server's PID is the shell's child.
    static var runsUnderSupervisor: Bool { get }
    /// The layout a server gets when none is given.
    static var defaultMonitors: [VirtualServer.Monitor] { get }
    /// The smallest framebuffer a start gives it.
    static var defaultFramebuffer: Size { get }
    /// What its outputs are called: the name of a layout's `index`th monitor as `--monitors` and the
    /// socket's `lease` name them (nil past its outputs).
    nonisolated static func monitorName(at index: Int) -> String?
    /// What a layout of more monitors than it has outputs is told.
    nonisolated static var outputsLimit: String { get }

    /// Refuses a monitor of a layout this kind cannot show (a name it reserves, a size past its limits).
    static func check(_ monitor: VirtualServer.Monitor) throws
    /// Refuses a framebuffer this kind cannot hold.
    static func check(framebufferWidth width: Int, height: Int) throws
    /// Starts a server of this kind with its layout; `pool` keeps it between leases when it may be pooled.
    static func start(_ monitors: [VirtualServer.Monitor], framebuffer: Size, depth: Int, glx: Bool,
                      serverArguments: [String], pooledIn pool: ServerPool.Place?) async throws -> VirtualServer

    /// After a layout is plugged: what makes the server look as a fresh one with that layout does (a probe,
    /// so that clients see it all).
    func finishLayout(_ monitors: [VirtualServer.Monitor], on server: VirtualServer) throws
    /// What a client needs to reach the server, from the X variables.
    func environment(_ x: [String: String]) -> [String: String]
    /// Plugs (or moves) a monitor; `identity` is the monitor's EDID's source when given; the frame's size is
    /// its mode, turned by `rotation` on the desktop.
    func plug(_ name: String, frame: Rect, primary: Bool, refreshRate: Double?, physicalSize: Size?,
              identity: VirtualServer.MonitorIdentity?, rotation: MonitorRotation, on server: VirtualServer) throws
    /// Unplugs a monitor.
    func unplug(_ name: String, keepPrimary: Bool, on server: VirtualServer) throws
    /// Sets a monitor's (an output's) mode, turned by `rotation` (nil: as it is); the mode set.
    func setMode(_ output: String, width: Int, height: Int, refreshRate: Double?, rotation: MonitorRotation?,
                 on server: VirtualServer) throws -> ScreenMode
    /// A screen's pixels as the server shows them.
    func screenshot(of screenName: String, on server: VirtualServer) throws -> Bitmap
    /// One pixel of a screen as 0xRRGGBB.
    func pixel(x: Int, y: Int, on screenName: String, of server: VirtualServer) throws -> UInt32
    /// Ends a server that is not going back to the pool: its process and files go.
    func end(_ server: VirtualServer)
}

/// The X kinds' ways: every change through the kit's own connection (`ServerControl`).
extension ServerKindImplementation {
    static var isPoolable: Bool { true }
    nonisolated static var canTurnMonitors: Bool { false }
    static var runsUnderSupervisor: Bool { false }
    static var defaultFramebuffer: Size { Size(width: 7680, height: 4320) }
    /// The connectors of Multihead's Xorg driver, which the compositor's outputs are named as too.
    nonisolated static func monitorName(at index: Int) -> String? {
        VirtualServer.cabledOutputs.indices.contains(index) ? VirtualServer.cabledOutputs[index] : nil
    }
    nonisolated static var outputsLimit: String { "Multihead's Xorg driver has 16 outputs" }
    static func check(_ monitor: VirtualServer.Monitor) throws {}
    static func check(framebufferWidth width: Int, height: Int) throws {}

    func finishLayout(_ monitors: [VirtualServer.Monitor], on server: VirtualServer) throws {
        try server.controlConnection().probe()
    }
    func environment(_ x: [String: String]) -> [String: String] { x }

    func plug(_ name: String, frame: Rect, primary: Bool, refreshRate: Double?, physicalSize: Size?,
              identity: VirtualServer.MonitorIdentity?, rotation: MonitorRotation, on server: VirtualServer) throws {
        let c = try server.controlConnection()
        if let identity {
            let edid = try identity.edid(preferred: frame.size, refreshRate: refreshRate, connector: name)
            try c.plug(name, frame: frame, primary: primary, refreshRate: refreshRate, edid: edid, rotation: rotation)
        } else {
            try c.plug(name, frame: frame, primary: primary, refreshRate: refreshRate, physicalSize: physicalSize, rotation: rotation)
        }
    }

    func unplug(_ name: String, keepPrimary: Bool, on server: VirtualServer) throws {
        try server.controlConnection().unplug(name, keepPrimary: keepPrimary)
    }

    func setMode(_ output: String, width: Int, height: Int, refreshRate: Double?, rotation: MonitorRotation?,
                 on server: VirtualServer) throws -> ScreenMode {
        try server.controlConnection().setOutputMode(output, width: width, height: height, refreshRate: refreshRate, rotation: rotation)
    }

    func screenshot(of screenName: String, on server: VirtualServer) throws -> Bitmap {
        try server.controlConnection().screenshot(of: screenName)
    }

    func pixel(x: Int, y: Int, on screenName: String, of server: VirtualServer) throws -> UInt32 {
        try server.controlConnection().pixel(x: x, y: y, on: screenName)
    }

    func end(_ server: VirtualServer) {
        VirtualServer.end(display: server.display, process: server.process, control: server.control,
                          serverAuthFile: server.serverAuthFile, sharedAuthorityFile: server.sharedAuthorityFile)
    }
}

/// Xvfb: monitors are virtual (`XRRSetMonitor`), the primary laid over Xvfb's one output, which is its
/// framebuffer. The one place of the kit that knows that output's name.
struct XvfbImplementation: ServerKindImplementation {
    static var kind: VirtualServer.Kind { .xvfb }
    /// Xvfb's one output: RandR refuses a monitor of its name.
    private static let outputName = "screen"
    static var defaultMonitors: [VirtualServer.Monitor] { [.init("VIRTUAL-1", "1920x1080+0+0", primary: true)] }
    /// Virtual monitors, as many as a layout holds.
    nonisolated static func monitorName(at index: Int) -> String? { "VIRTUAL-\(index + 1)" }
    nonisolated static var outputsLimit: String { "" }

    static func check(_ monitor: VirtualServer.Monitor) throws {
        if monitor.name == outputName {
            throw ServerControlError.invalidMonitor("the name \"\(outputName)\" is Xvfb's output's")
        }
    }

    static func start(_ monitors: [VirtualServer.Monitor], framebuffer fb: Size, depth: Int, glx: Bool,
                      serverArguments: [String], pooledIn pool: ServerPool.Place?) async throws -> VirtualServer {
        let server = try await XServerLauncher.launch(
            Self(), binary: "Xvfb", package: "xvfb",
            arguments: ["-br", "-screen", "0", "\(Int(fb.width))x\(Int(fb.height))x\(depth)"] + serverArguments, framebuffer: fb)
        try server.beginAsStarted(monitors, pooledIn: pool)
        return server
    }
}

/// What both Xorg kinds share: a supervising shell, and a screen that is its monitors' bounding box.
protocol XorgKindImplementation: ServerKindImplementation {
    init()
    /// The config's `Device` lines for its driver, and the server's arguments that find the driver.
    static func driver() async throws -> (device: String, arguments: [String])
    /// What in Xorg's log says why the server did not start, when its driver knows better than the log's tail.
    static func complaint(inLog log: String) -> String?
}

extension XorgKindImplementation {
    static var runsUnderSupervisor: Bool { true }

    static func start(_ monitors: [VirtualServer.Monitor], framebuffer: Size, depth: Int, glx: Bool,
                      serverArguments: [String], pooledIn pool: ServerPool.Place?) async throws -> VirtualServer {
        let server = try await XServerLauncher.launchXorg(Self(), framebuffer: framebuffer, depth: depth, extraArguments: serverArguments)
        try server.beginAsStarted(monitors, pooledIn: pool)
        return server
    }

    func finishLayout(_ monitors: [VirtualServer.Monitor], on server: VirtualServer) throws {
        let c = try server.controlConnection()
        c.probe()
        // A real Xorg's screen is its monitors' bounding box, not the framebuffer (Xvfb's cannot change).
        try c.fitScreenToMonitors()
    }
}

/// Xorg with Multihead's driver (`Driver/`): 16 outputs with cables, plugged with an EDID.
struct XorgImplementation: XorgKindImplementation {
    static var kind: VirtualServer.Kind { .xorg }
    nonisolated static var canTurnMonitors: Bool { true }
    static var defaultMonitors: [VirtualServer.Monitor] { [.init("DP-1", "1920x1080+0+0", primary: true)] }
    /// 16384×16384, the largest monitor `--monitors` takes: it costs only the pages drawn (the screen
    /// starts at its monitors' bounding box), so every layout up to it shares one warm server.
    static var defaultFramebuffer: Size { Size(width: 16384, height: 16384) }

    static func driver() async throws -> (device: String, arguments: [String]) {
        // Xorg's own folder after the driver's (the installed driver's folder is Xorg's own).
        let driver = try await XorgDriver.moduleDirectory()
        return (#"Driver "multihead""#, ["-modulepath", driver == "/usr/lib/xorg/modules" ? driver : driver + ",/usr/lib/xorg/modules"])
    }

    /// A module built for another server's ABI: Xorg's log names both versions.
    static func complaint(inLog log: String) -> String? { XorgDriver.abiComplaint(inLog: log) }
}

/// Xorg with Debian's dummy driver: DUMMY0…DUMMY15, plugged with a mode on a CRTC; its framebuffer must
/// fit its video memory.
struct XorgDummyImplementation: XorgKindImplementation {
    static var kind: VirtualServer.Kind { .xorgDummy }
    static var defaultMonitors: [VirtualServer.Monitor] { [] }
    nonisolated static func monitorName(at index: Int) -> String? { (0..<16).contains(index) ? "DUMMY\(index)" : nil }
    nonisolated static var outputsLimit: String { "Xorg's dummy driver has 16 outputs" }

    static func driver() async throws -> (device: String, arguments: [String]) {
        let driver = ["/usr/lib/xorg/modules/drivers/dummy_drv.so", "/usr/lib64/xorg/modules/drivers/dummy_drv.so"]
        guard driver.contains(where: FileManager.default.fileExists(atPath:)) else {
            throw VirtualServerError.notInstalled(binary: "the Xorg dummy driver", package: "xserver-xorg-video-dummy")
        }
        return (#"Driver "dummy""# + "\n    VideoRam \(VirtualServer.dummyVideoRAM)", [])
    }

    static func complaint(inLog log: String) -> String? { nil }

    static func check(framebufferWidth width: Int, height: Int) throws {
        // The dummy driver's framebuffer, 4 bytes a pixel with its rows padded (to 64 pixels, the most it pads).
        if (width + 63) / 64 * 64 * height * 4 > VirtualServer.dummyVideoRAM * 1024 {
            throw ServerControlError.invalidMonitor(
                "a desktop of \(width)x\(height) does not fit Xorg+dummy's \(VirtualServer.dummyVideoRAM / 1000) MB of video memory (about 8000x8000 at most); the default kind, --xorg, takes up to 16384x16384")
        }
    }

    func finishLayout(_ monitors: [VirtualServer.Monitor], on server: VirtualServer) throws {
        let c = try server.controlConnection()
        // Outputs that the layout does not name are unplugged (DUMMY0 starts plugged).
        if !monitors.contains(where: { $0.name == "DUMMY0" }) { try c.unplug("DUMMY0") }
        c.probe()
        try c.fitScreenToMonitors()
    }
}

extension VirtualServer.Kind {
    /// The name of a layout's `index`th monitor on this kind (nil past its outputs, and `outputsLimit`
    /// says so).
    package func monitorName(at index: Int) -> String? { implementation.monitorName(at: index) }
    /// What a layout of more monitors than this kind has outputs is told.
    package var outputsLimit: String { implementation.outputsLimit }
    /// Whether its monitors can turn (`plug(…, rotation:)`): `.xorg` (Multihead's driver) and `.wayland`.
    public var canTurnMonitors: Bool { implementation.canTurnMonitors }

    /// Why this kind refuses `rotation` (nil: it can make it), as the kit and the socket say it.
    package func refusal(toTurn rotation: MonitorRotation?) -> String? {
        guard let rotation, rotation != .normal, !canTurnMonitors else { return nil }
        return "the \(name) kind cannot turn a monitor (\(rotation.rawValue)): its outputs have no rotation; the xorg kind (Multihead's driver) and the wayland kind can"
    }

    /// The kind's one implementation.
    nonisolated var implementation: any ServerKindImplementation.Type {
        switch self {
        case .xvfb: XvfbImplementation.self
        case .xorg: XorgImplementation.self
        case .xorgDummy: XorgDummyImplementation.self
        case .wayland: CompositorImplementation.self
        }
    }
}
