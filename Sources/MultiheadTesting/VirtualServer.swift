#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadX11

/// A private X server for a test: started on a free display (`-displayfd`) with its own cookie,
/// `-noreset` and no TCP, given a monitor layout, stopped by PID.
///
/// ```swift
/// let server = try await VirtualServer.start(monitors: [.init("MAIN", "1920x1080+0+0", primary: true)])
/// defer { server.stop() }
/// let app = try server.makeApplication()
/// try server.plug("EXT-1", "1280x720+1920+0")
/// ```
@MainActor
public final class VirtualServer {
    /// What a monitor says of itself (its EDID's manufacturer, model, serial number and size).
    public typealias MonitorIdentity = ServerControl.MonitorIdentity

    /// One monitor of a layout.
    public struct Monitor: Sendable, Hashable {
        /// Its name (not "screen", which is Xvfb's output's own name).
        public var name: String
        /// Where it sits on the desktop.
        public var frame: Rect
        /// Whether it is the primary monitor.
        public var primary: Bool
        /// Its size in millimetres (nil: 96 pixels per inch): with its pixels, what decides its scale
        /// (`ScreenScalePolicy`). An output's is given in its EDID.
        public var physicalSize: Size?

        /// A monitor from a name and a frame.
        public init(name: String, frame: Rect, primary: Bool = false, physicalSize: Size? = nil) {
            self.name = name
            self.frame = frame
            self.primary = primary
            self.physicalSize = physicalSize
        }

        /// A monitor from a name and xrandr's geometry "WxH+X+Y"; a malformed geometry gives an empty frame,
        /// which `start` refuses.
        public init(_ name: String, _ geometry: String, primary: Bool = false, physicalSize: Size? = nil) {
            self.init(name: name, frame: Rect(geometry: geometry) ?? .zero, primary: primary, physicalSize: physicalSize)
        }
    }

    /// Which X server to run.
    public enum Kind: String, Sendable {
        /// Xvfb: monitors are virtual (`XRRSetMonitor`); the primary one is laid over Xvfb's one output
        /// `screen`, which stays lit, so that toolkits reading outputs see one display.
        case xvfb
        /// Xorg with Debian's dummy driver: 16 outputs DUMMY0…DUMMY15 with real mode lists and refresh
        /// rates, plugged with a mode on a CRTC and unplugged with the CRTC off, as real monitors are.
        case xorgDummy
        /// Xorg with Multihead's own driver (`Driver/`): 16 outputs named as a desktop's connectors,
        /// DP-1…DP-8 and HDMI-1…HDMI-8, each with a cable: a plug connects the output with a monitor's EDID
        /// (its modes, name and size with it) and lights it, an unplug turns it off and disconnects it, and
        /// every client (SDL, GLFW, GTK, Qt) sees the connection change as on real hardware.
        case xorg
        /// Xwayland inside Multihead's headless Wayland compositor (`WaylandServer`): each monitor is one of
        /// the compositor's outputs (DP-1…DP-8, HDMI-1…HDMI-8; a monitor of another name takes the first
        /// free one), which Xwayland shows as an output XWAYLANDn with a CRTC, and the kit names it with a
        /// RandR monitor of the monitor's name, so X clients (this package's model too) see MAIN and TV.
        /// Screenshots read the compositor's output (`screenshot(of:)`, `pixel`; the control connection's own
        /// read sees Xwayland's root, which rootless Xwayland leaves empty). Never pooled: each start is a new
        /// compositor; `pid` is the compositor's (it ends Xwayland with it); `framebuffer` and `glx` mean
        /// nothing there (Xwayland grows its screen, and has GLX), nor does `unplug`'s `keepPrimary`.
        case wayland

        /// The kind as the command line's flags, the control socket's `hello` and the pytest plugin spell
        /// it: xvfb, xorg-dummy, xorg.
        public var name: String {
            switch self {
            case .xvfb: "xvfb"
            case .xorgDummy: "xorg-dummy"
            case .xorg: "xorg"
            case .wayland: "wayland"
            }
        }

        /// The X servers' kinds, in the order `multihead doctor` lists them (the compositor, `.wayland`, is
        /// listed apart).
        public static let all: [Kind] = [.xvfb, .xorg, .xorgDummy]

    }

    /// The outputs of Multihead's Xorg driver (`.xorg`), in its order: DP-1…DP-8, HDMI-1…HDMI-8.
    public nonisolated static let cabledOutputs = (1...8).map { "DP-\($0)" } + (1...8).map { "HDMI-\($0)" }

    /// The kind of server.
    public var kind: Kind { Swift.type(of: implementation).kind }
    /// Its kind's implementation: how this server is changed, read and ended (on the wayland kind, with
    /// the compositor and its outputs).
    let implementation: any ServerKindImplementation
    /// The display name, such as ":3".
    public let display: String
    /// The X server's own process ID (on Xorg too, not its supervising shell; on the wayland kind the
    /// compositor's, whose end ends Xwayland).
    public let pid: Int32
    /// The authority file a client of this server reads (`XAUTHORITY`): for a lease of a pooled server, a
    /// file of this lease's own, holding only its cookie, and removed at `stop()` (a process the test left
    /// running finds nothing to read again); for a `fresh` server, the file this process's servers share.
    public internal(set) var authorityFile: String
    /// The file this process's servers share, which `XAUTHORITY` of this process names (its own clients
    /// read it).
    let sharedAuthorityFile: String
    /// The framebuffer's size: no monitor can reach past it.
    public let framebuffer: Size
    let process: ChildProcess
    let serverAuthFile: String
    var control: MultiheadServerControl.ServerControl?
    /// The backend `attachShared()` gave `Application.shared`, while it has it.
    weak var sharedBackend: X11Backend?
    private(set) var stopped = false
    /// For a server that goes back to a pool at `stop()`: the test's lease of it (nil: it ends at `stop()`).
    var lease: ServerLease?
    /// Whether this lease took a warm server from the pool (for tests and benchmarks).
    public internal(set) var isWarm = false
    /// After `stop()`: whether the server went back to the pool, its clients closed, reset and checked
    /// (false: it was ended; `VirtualServer.lastPoolRefusal` says why when a reset fell short).
    public private(set) var wasPooled = false

    init(_ implementation: any ServerKindImplementation, display: String, process: ChildProcess, authorityFile: String,
         serverAuthFile: String, framebuffer: Size) {
        self.implementation = implementation
        self.display = display
        // Xorg runs under a supervising shell, whose one child is the server itself.
        let supervised = Swift.type(of: implementation).runsUnderSupervisor
        self.pid = supervised ? Self.onlyChild(of: process.pid) ?? process.pid : process.pid
        self.process = process
        self.authorityFile = authorityFile
        self.sharedAuthorityFile = authorityFile
        self.serverAuthFile = serverAuthFile
        self.framebuffer = framebuffer
    }

    isolated deinit { stop() }

    /// What a child process needs to reach this server: `DISPLAY` and `XAUTHORITY`; on the wayland kind
    /// also the compositor's `WAYLAND_DISPLAY` and `XDG_RUNTIME_DIR`.
    public var environment: [String: String] {
        implementation.environment(["DISPLAY": display, "XAUTHORITY": authorityFile])
    }

    /// The layout a server gets when none is given: one 1920×1080 monitor, VIRTUAL-1, on Xvfb; DP-1 at
    /// 1920×1080 on Xorg with Multihead's driver; DUMMY0 at 1024×768 on Xorg+dummy.
    public static func defaultMonitors(for kind: Kind) -> [Monitor] {
        kind.implementation.defaultMonitors
    }

    /// The smallest framebuffer `start` gives a kind (a layout larger than it gets its own size): on the
    /// default kind (`.xorg`) 16384×16384, the largest monitor `--monitors` takes, which costs only the
    /// pages drawn (the screen starts at its monitors' bounding box), so that every layout up to it shares
    /// one warm server; elsewhere 7680×4320 (Xvfb's framebuffer is memory drawn at its start; Xorg+dummy's
    /// holds 256 MB of video memory).
    package static func defaultFramebuffer(for kind: Kind) -> Size {
        kind.implementation.defaultFramebuffer
    }

    /// The kind `start` runs for this task when given none (see `kindForThisTask()`).
    @TaskLocal public static var defaultKind: Kind?

    /// The kind `start` runs when it is given none: the running task's `VirtualServer.$defaultKind`, else
    /// the environment's `MULTIHEAD_KIT_KIND` (a kind's `name`), else Xvfb. So a test suite written for
    /// Xvfb runs unchanged on another kind: `MULTIHEAD_KIT_KIND=wayland swift test`. A name of no kind is
    /// `invalidOption`.
    public static func kindForThisTask() throws -> Kind {
        if let kind = defaultKind { return kind }
        return try kind(named: ProcessInfo.processInfo.environment["MULTIHEAD_KIT_KIND"])
    }

    /// The kind `MULTIHEAD_KIT_KIND` names: nil or empty is Xvfb.
    package nonisolated static func kind(named name: String?) throws -> Kind {
        guard let name, !name.isEmpty else { return .xvfb }
        let kinds = Kind.all + [.wayland]
        guard let kind = kinds.first(where: { $0.name == name }) else {
            throw VirtualServerError.invalidOption(
                "MULTIHEAD_KIT_KIND=\(name.terminalEscaped) names no kind of server (\(kinds.map(\.name).joined(separator: ", ")))")
        }
        return kind
    }

    /// Starts a server with a monitor layout, marked as the kit's own (so that `multihead plug` changes it
    /// without `--force`).
    ///
    /// Xvfb (the default here on every machine, unlike `multihead server`'s, which is Xorg with Multihead's
    /// driver wherever it can start: a test's monitors keep the names it gives them, and its kind does not
    /// follow what the machine has installed) gets a framebuffer large enough for the layout and room to plug more; every
    /// monitor is virtual, and the primary (else the first) is laid over Xvfb's own output `screen`, which
    /// stays lit: SDL, GLFW, GTK and Qt 5 (which read outputs and CRTCs) see one display the size of the
    /// framebuffer, as on a plain Xvfb, while RandR 1.5 clients (this package, Qt 6) see each monitor.
    /// Only an explicit empty layout keeps `screen`'s automatic monitor as the one monitor (to test an
    /// output's modes).
    /// Xorg+dummy takes output names (DUMMY0…DUMMY15) and plugs each with a mode of its frame's size at its
    /// position; with no monitors DUMMY0 shows 1024×768 at (0, 0). Xorg with Multihead's driver (`.xorg`)
    /// starts with every cable out and plugs one per monitor of the layout (output names, DP-1…DP-8,
    /// HDMI-1…HDMI-8), each with a generated EDID whose preferred mode is the frame's size; by default DP-1
    /// at 1920×1080. On the Xorg kinds the screen (the root window) starts as the layout's bounding box, as a
    /// real Xorg's is the bounding box of its CRTCs; Xvfb's screen is its framebuffer, whose size never
    /// changes. `serverArguments` go to the server
    /// binary as they are (`["-extension", "RANDR"]` makes a server without RandR).
    ///
    /// `depth` is the screen's colour depth: 24 (the default), 16 (5-6-5 TrueColor, drawn and read back
    /// in true colours) or 8 (PseudoColor, which the presenter refuses with `X11Error.unsupportedVisual`).
    ///
    /// The server starts without GLX (`-extension GLX`), which nothing of the kit uses and which is over a
    /// third of Xvfb's start; `glx: true` keeps it, for an app under test that draws with OpenGL on GLX.
    ///
    /// Unless `fresh`, the server comes from this process's pool of warm servers when one of the same kind,
    /// framebuffer, depth, GLX and arguments is idle (`stop()` put it there after resetting it to the state
    /// it had fresh, and checking that it does), else a new one is started that `stop()` will pool. Each
    /// such lease has a cookie of its own (SECURITY extension), revoked at `stop()`: every client that
    /// connected with it is closed then, and none can reach the next test. `fresh: true` starts a private
    /// server that `stop()` ends: for a test that kills, freezes or waits for the end of its server.
    public static func start(_ kind: Kind? = nil, monitors layout: [Monitor]? = nil, framebuffer: Size? = nil,
                             depth: Int = 24, glx: Bool = false, serverArguments: [String] = [],
                             fresh: Bool = false) async throws -> VirtualServer {
        try await start(kind, monitors: layout, framebuffer: framebuffer, depth: depth, glx: glx, serverArguments: serverArguments,
                        pool: fresh ? nil : ServerPool.shared)
    }

    /// `start` with the pool a server is taken from and handed back to (nil: `fresh`).
    package static func start(_ kind: Kind?, monitors layout: [Monitor]?, framebuffer: Size? = nil, depth: Int = 24, glx: Bool,
                              serverArguments: [String] = [], pool: ServerPool?) async throws -> VirtualServer {
        let implementation = try (kind ?? kindForThisTask()).implementation
        guard [8, 15, 16, 24].contains(depth) else { throw VirtualServerError.invalidOption("depth \(depth) (8, 15, 16 or 24)") }
        let monitors = layout ?? implementation.defaultMonitors
        try checkLayout(implementation.kind, monitors: monitors, framebuffer: framebuffer)
        let fb = framebuffer ?? Self.framebuffer(for: implementation.kind, monitors: monitors)
        let serverArguments = (glx ? [] : ["-extension", "GLX"]) + serverArguments
        let pool = implementation.isPoolable ? pool : nil
        let key = ServerPool.Key(kind: implementation.kind, framebuffer: fb, depth: depth, glx: glx, serverArguments: serverArguments)
        if let pool, let warm = await pool.take(key, monitors) { return warm }
        return try await implementation.start(monitors, framebuffer: fb, depth: depth, glx: glx, serverArguments: serverArguments,
                                              pooledIn: pool.map { ($0, key) })
    }

    /// The rest of a cold start of an X server, once it answers: marked as the kit's, and its lease begun
    /// when it can be pooled (the layout, then the test's cookie, as a warm start does), else its layout.
    func beginAsStarted(_ monitors: [Monitor], pooledIn pool: ServerPool.Place?) throws {
        do {
            let c = try controlConnection()
            try c.markPrivate()
            // A server without what the reset uses (a test may start one without RandR) is not pooled.
            if let (pool, key) = pool, ServerPool.requiredExtensions.allSatisfy(c.hasExtension), let baseline = try? c.fingerprint() {
                lease = ServerLease(pool: pool, key: key, baseline: baseline)
                try beginLease(monitors)
            } else {
                try apply(monitors)
            }
        } catch {
            lease = nil
            stop()
            throw error
        }
    }

    /// Plugs a layout into a server as it is fresh.
    func apply(_ monitors: [Monitor]) throws {
        _ = try controlConnection()
        guard !monitors.isEmpty else { return }
        // The primary first: on Xvfb the first monitor plugged is laid over its framebuffer's output.
        let first = monitors.firstIndex { $0.primary } ?? 0
        for m in [monitors[first]] + monitors.enumerated().filter({ $0.offset != first }).map(\.element) {
            try plug(m.name, frame: m.frame, primary: m.primary, physicalSize: m.physicalSize)
        }
        try implementation.finishLayout(monitors, on: self)
    }

    /// The server a `.virtualServer` trait started for the running test.
    @TaskLocal public static var current: VirtualServer?

    /// Stops the server (SIGTERM, then SIGKILL after 2 s) and removes its files.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        // The lease's file goes whatever happens to the server: its cookie is revoked or the server ends.
        defer { if authorityFile != sharedAuthorityFile { unlink(authorityFile) } }
        if let b = sharedBackend, Application.shared.backend === b { Application.shared.detach() }
        if returnToPool() {
            wasPooled = true
            return
        }
        implementation.end(self)
        control = nil
    }

    /// Ends a server process of the kit and removes its files: its control connection closed, the process
    /// stopped (SIGTERM, then SIGKILL after 2 s), its cookie gone from the shared authority file.
    static func end(display: String, process: ChildProcess, control: ServerControl?, serverAuthFile: String,
                    sharedAuthorityFile: String) {
        control?.close()
        process.terminate()
        try? FileManager.default.removeItem(atPath: serverAuthFile)
        try? XauthFile.set(sharedAuthorityFile, display: String(display.dropFirst()), cookie: nil)
        ServerRegistry.unregister(process.pid)
    }

    /// Ends the server now, pooled or not: its clients, its process and its files go, with no reset for a
    /// next test (a process that is itself ending has none). A server already back in the pool is not this
    /// lease's any more: the registry ends it when the process ends.
    public func end() {
        lease = nil
        stop()
    }

    /// A process's one child, from `/proc/PID/task/PID/children` (the shell forked the server before the
    /// server could print its display, so it is there by now).
    nonisolated static func onlyChild(of pid: Int32) -> Int32? {
        let text = ProcessControl.procFile("/proc/\(pid)/task/\(pid)/children")
        let children = (text ?? "").split(separator: " ").compactMap { Int32($0) }
        return children.count == 1 ? children[0] : nil
    }

    /// Waits until the X server process ends, however it ends (a signal, a crash, `stop()`), and returns
    /// how: its exit status, or 128 + the signal that ended it. The process is left for `stop()` to reap.
    /// While this process handles SIGINT, SIGTERM or SIGHUP (stopping its servers, then exiting 128 + the
    /// signal), it does not return.
    /// `ProcessControl.waitUntilEnded`.
    public func waitForExit() async -> Int32 {
        let pid = process.pid
        return await onOwnThread {
            let status = ProcessControl.waitUntilEnded(pid)
            // This process is ending for a signal and stopped the server itself: its exit status (128 +
            // the signal) is the news, so this wait never returns.
            while ServerRegistry.isStoppingForSignal { pause() }
            // Someone else reaped it (`stop()`): it has ended; how is no longer known.
            return status ?? 128 + SIGTERM
        }
    }

    /// How long the kit's control connection waits for this server before `X11Error.notResponding`
    /// (a change takes effect with the next connection: the current one is closed).
    public var timeout: Double = 5 {
        didSet {
            control?.close()
            control = nil
        }
    }
}
