internal import CXlib
import Glibc
import Multihead
import MultiheadX11
import MultiheadProcess

/// A connection for changing an X server's monitors as a person or a cable would: plug and unplug
/// monitors, set output modes; and for acting on it as a person at it would (clicks, keys, screenshots).
/// The CLI's `plug`, `unplug`, `mode` and `screenshot` use one, and so do the test kit's servers.
@MainActor
public final class ServerControl {
    let connection: XConnection
    var atoms: [String: UInt] = [:]
    /// `isXvfb`, once read.
    private var xvfb: Bool?

    /// Connects to a display (nil: `DISPLAY`); a server that does not answer within `timeout` seconds,
    /// here or later, is `X11Error.notResponding`.
    public init(display: String?, timeout: Double = 5) throws {
        connection = try XConnection(name: display, timeout: timeout)
    }

    /// Connects as `init(display:timeout:)` does, giving up on the connection itself at `connectBy` (a
    /// `MonotonicClock` time) when that comes first.
    package init(display: String?, timeout: Double, connectBy: Double?) throws {
        connection = try XConnection(name: display, timeout: timeout, connectBy: connectBy)
    }

    /// The root window's size as the server has it now (`XGetGeometry`).
    public var rootSize: Size { connection.rootSize() }

    /// The display name in use.
    public var displayName: String { connection.name }

    /// Closes the connection.
    public func close() { connection.close() }

    /// Runs `body` (calls on this connection) as one bounded section: a server that has not answered all
    /// of it by the connection's timeout, or by `until` (a `MonotonicClock` time) when that comes first,
    /// loses the connection and `body`'s calls throw `X11Error.notResponding`.
    package func bounded<T>(until: Double? = nil, _ body: () throws -> T) throws -> T {
        try connection.bounded(until: until, body)
    }

    /// Whether the connection is gone: the server went away or stopped answering in time (every later call
    /// throws; make a new `ServerControl` once the server answers again).
    public var isLost: Bool { connection.isLost }

    /// Whether the kit started this server (it marks the root window with `_MULTIHEAD_PRIVATE_SERVER`):
    /// only such a server's monitors may be changed without `--force`. `XGetWindowProperty`.
    public var isPrivateServer: Bool { hasRootProperty(Self.privateMarkName) }

    /// Whether the root window has a property of that name (a window manager sets
    /// `_NET_SUPPORTING_WM_CHECK` once it runs). `XGetWindowProperty`.
    public func hasRootProperty(_ name: String) -> Bool {
        let c = connection
        guard !c.isLost else { return false }
        return c.bounded {
            let atom = XInternAtom(c.display, name, 1)
            guard atom != 0, !c.isLost else { return false }
            var type: Atom = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
            var data: UnsafeMutablePointer<UInt8>?
            let status = XGetWindowProperty(c.display, CXlib.Window(c.root), atom, 0, 1, 0, Atom(AnyPropertyType),
                                            &type, &format, &count, &after, &data)
            defer { if let data { XFree(data) } }
            return status == Success && type != 0 && count > 0 && !c.isLost
        }
    }

    /// Whether the server offers an extension by that name ("GLX", "RANDR", "MIT-SHM"). `XQueryExtension`.
    public func hasExtension(_ name: String) -> Bool {
        let c = connection
        guard !c.isLost else { return false }
        return c.bounded {
            var opcode: Int32 = 0, event: Int32 = 0, error: Int32 = 0
            return XQueryExtension(c.display, name, &opcode, &event, &error) != 0 && !c.isLost
        }
    }

    static let privateMarkName = "_MULTIHEAD_PRIVATE_SERVER"

    /// Whether the server is Xvfb, read once per connection (the one place that tells): Xvfb is the X.Org
    /// server without the XFree86 layer, so it alone lacks XFree86-VidMode, which Xorg (every driver) and
    /// Xwayland offer. No output's name is asked. `XQueryExtension`.
    package var isXvfb: Bool {
        if let known = xvfb { return known }
        let answer = !hasExtension("XFree86-VidModeExtension")
        // A lost connection answers nothing: not kept, so a new read can tell.
        if !connection.isLost { xvfb = answer }
        return answer
    }

    /// Marks the server as the kit's own (a property on the root window holding our PID). `XChangeProperty`.
    package func markPrivate() throws {
        let c = connection
        let atom = XInternAtom(c.display, Self.privateMarkName, 0)
        var pid = UInt(getpid())
        try c.trap("ChangeProperty \(Self.privateMarkName)") {
            withUnsafeBytes(of: &pid) { raw in
                _ = XChangeProperty(c.display, CXlib.Window(c.root), atom, XA_CARDINAL, 32, PropModeReplace,
                                    raw.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
            }
        }
    }

    /// Plugs (or redefines) a monitor: an output's name (DUMMY1 on Xorg+dummy) gets a mode of the frame's
    /// size (the nearest to `refreshRate` within 0.5 Hz when given; made with CVT timings when the server
    /// has none of that size) on a CRTC at the frame's position; any other name is a virtual monitor, which
    /// has no refresh rate (`refreshRate` is then `invalidMonitor`). On Xvfb the first virtual monitor is
    /// laid over Xvfb's output `screen`, which stays lit: toolkits that read outputs (SDL, GLFW, GTK) see one
    /// display the size of the root, and those that read RandR 1.5 monitors see every monitor. The check
    /// and the change happen under one server grab; it returns once the server has applied the change.
    ///
    /// `edid`: the monitor's EDID, which an output then publishes (its `EDID` property) before it lights,
    /// as a driver does when a cable is plugged; a virtual monitor has no connector to carry one
    /// (`invalidMonitor`). On Multihead's own Xorg driver (`VirtualServer.Kind.xorg`) a plug is a cable:
    /// the output is connected with that EDID (or a generated one whose preferred mode is the frame's
    /// size), the server re-probes it, and it lights in a mode of its EDID.
    ///
    /// `physicalSize`: a virtual monitor's size in millimetres, as RandR reports it (by default 96 pixels
    /// per inch); an output given a size alone publishes the EDID of a monitor that size.
    ///
    /// `rotation`: the monitor turned (a portrait monitor is `.left` or `.right`); the frame's size is its
    /// mode, so it covers the size turned. Outputs whose CRTCs can turn only (Multihead's driver); anything
    /// else is `invalidMonitor`.
    public func plug(_ name: String, frame: Rect, primary: Bool = false, refreshRate: Double? = nil, edid: [UInt8]? = nil,
                     physicalSize: Size? = nil, rotation: MonitorRotation = .normal) throws {
        try Self.validate(name: name)
        try requireRandR15()
        if let edid, let fault = EDID.fault(in: edid) {
            throw ServerControlError.invalidMonitor("the EDID given for \(name.terminalEscaped) is not one a monitor sends: \(fault)")
        }
        if let mm = physicalSize, !(mm.isFinite && mm.width >= 1 && mm.height >= 1 && mm.width <= 65535 && mm.height <= 65535) {
            throw ServerControlError.invalidMonitor("\(name.terminalEscaped): a physical size of \(mm.width)×\(mm.height) mm")
        }
        let c = connection
        try c.grabbed {
            // One read of RandR (two round trips) serves every check below and the change.
            let state = try readState()
            try Self.checkFrame(name, Rect(origin: frame.origin, size: rotation.turning(frame.size)), largest: state.largestScreen)
            if let output = state.output(named: name) {
                try Self.checkTurn(output, rotation, state)
                // An output's size is its EDID's: a size alone is made into the EDID of a monitor that size.
                var edid = edid
                if let mm = physicalSize {
                    guard edid == nil else {
                        throw ServerControlError.invalidMonitor("\(name.terminalEscaped): give the monitor's size in its EDID or alone, not both")
                    }
                    edid = try MonitorIdentity(model: Self.defaultModel(name), physicalSize: mm).edid(preferred: frame.size, refreshRate: refreshRate,
                                                                                         connector: name)
                }
                guard xvfbOutput(in: state)?.id != output.id else {
                    throw ServerControlError.invalidMonitor("\"\(name.terminalEscaped)\" is Xvfb's own output; plug a virtual monitor under another name")
                }
                // Multihead's own driver: the cable is plugged, and the monitor's EDID gives the modes.
                if hasCable(output: output.id) {
                    return try plugCable(output, frame: frame, primary: primary, refreshRate: refreshRate, edid: edid, rotation: rotation, state)
                }
                let before = edid == nil ? nil : edidProperty(of: output.id)
                if let edid { try setEDID(edid, output: output.id) }
                do {
                    try OutputConfigurator(c).apply(output: name, .size(frame.size, refreshRate: refreshRate), origin: frame.origin,
                                                    rotation: rotation.randr, primary: primary, makeMissing: true, in: state)
                } catch {
                    // Refused: the output keeps the EDID it had.
                    if edid != nil { try? setEDID(before, output: output.id) }
                    throw error
                }
                // A monitor that is plugged in announces all its modes at once (its EDID); the dummy driver
                // fills a connected output's list when probed, so probe now, inside the grab.
                probe()
                return
            }
            try Self.refuseRate(refreshRate, virtual: name)
            try Self.refuseTurn(rotation, virtual: name)
            if edid != nil {
                throw ServerControlError.invalidMonitor(
                    "\(name.terminalEscaped) is a virtual monitor, which has no connector to carry an EDID; plug an output, such as --xorg's DP-1…HDMI-8 or Xorg+dummy's DUMMY0…DUMMY15")
            }
            try plugVirtual(name, frame: frame, primary: primary, physicalSize: physicalSize, state)
        }
    }

    /// A virtual monitor is a region of the root: it has no CRTC to turn.
    private static func refuseTurn(_ rotation: MonitorRotation?, virtual name: String) throws {
        guard let rotation, rotation != .normal else { return }
        throw ServerControlError.invalidMonitor(
            "\(name.terminalEscaped) is a virtual monitor, which cannot turn (\(rotation.rawValue)); outputs turn: --xorg's DP-1…HDMI-8 (Multihead's driver), or --wayland's outputs")
    }

    /// An output turns only where each CRTC it can take offers the rotation (Multihead's driver's do; Xvfb's
    /// and the dummy driver's do not).
    private static func checkTurn(_ output: RandR.OutputInfo, _ rotation: MonitorRotation?, _ state: RandRState) throws {
        guard let rotation, rotation != .normal else { return }
        let crtcs = output.possibleCrtcs.compactMap { state.crtc($0) }
        guard !crtcs.isEmpty, crtcs.allSatisfy({ $0.rotations & rotation.randr != 0 }) else {
            throw ServerControlError.invalidMonitor(
                "\(output.name.terminalEscaped) cannot turn \(rotation.rawValue): this X server's CRTCs offer no rotation (Xvfb's and Xorg's dummy driver's do not; --xorg, Multihead's driver, and --wayland do)")
        }
    }

    /// A virtual monitor has no timings, so no rate: asking for one is a mistake, not something to ignore.
    private static func refuseRate(_ rate: Double?, virtual name: String) throws {
        guard let rate else { return }
        throw ServerControlError.invalidMonitor(
            "\(name.terminalEscaped) is a virtual monitor, which has no refresh rate (asked for \(String(rate: rate)) Hz); rates exist on outputs, such as --xorg's DP-1…HDMI-8 or Xorg+dummy's DUMMY0…DUMMY15")
    }

    /// A frame a monitor can have: finite, not empty, within the largest screen the server can make.
    private static func checkFrame(_ name: String, _ frame: Rect, largest: Size) throws {
        guard frame.isFinite, !frame.isEmpty, frame.minX >= 0, frame.minY >= 0,
              frame.maxX <= largest.width, frame.maxY <= largest.height else {
            throw ServerControlError.invalidMonitor(
                "\(name.terminalEscaped) \(frame): the frame must lie within the largest screen, \(Int(largest.width))x\(Int(largest.height)) at (0, 0)")
        }
    }

    /// Defines (or redefines) a virtual monitor; the caller holds the grab and has checked the frame. On
    /// Xvfb, a monitor that holds the output `screen` keeps it, and the first client monitor takes it
    /// (lighting `screen` again if it was off).
    /// `physicalSize` nil: 96 pixels per inch.
    private func plugVirtual(_ name: String, frame: Rect, primary: Bool, physicalSize: Size?, _ state: RandRState) throws {
        let monitors = Self.liveMonitors(state)
        let lone = xvfbOutput(in: state)
        let old = monitors.first { $0.name == name }
        let holder = lone.flatMap { s in monitors.first { $0.name != s.name && $0.outputs.contains(s.id) } }
        let takesScreen = lone != nil && (holder == nil || holder?.name == name)
        let relit = lone.map { takesScreen && $0.crtc == 0 } ?? false
        if let lone, relit { try relight(lone, state) }
        if old != nil { try deleteMonitor(name: name) }
        try addMonitor(name: name, frame: frame, primary: primary || (old?.primary ?? false),
                       outputs: takesScreen ? lone.map { [$0.id] } ?? [] : [], physicalSize: physicalSize)
        // A CRTC lit moved the configuration's timestamp already; else the CRTCs are as `state` read them.
        if !relit { try stampConfiguration(state) }
    }

    /// One RandR 1.5 monitor as the server lists it now.
    struct LiveMonitor {
        var name: String
        var frame: Rect
        var primary: Bool
        var outputs: [UInt]
        var physicalSize: Size
    }

    /// The active monitors with their names, as a read of RandR says.
    static func liveMonitors(_ state: RandRState) -> [LiveMonitor] {
        state.monitors.compactMap { m in
            state.name(of: m).map { LiveMonitor(name: $0, frame: m.frame, primary: m.primary, outputs: m.outputs, physicalSize: m.physicalSize) }
        }
    }

    /// What RandR says now (`RandRState`, two round trips): one read serves every check of a plug, unplug
    /// or mode change, and the change itself.
    func readState() throws -> RandRState { try OutputConfigurator(connection).read() }

    /// Xvfb's one output, its framebuffer (an Xvfb has no other), or nil on any other server.
    func xvfbOutput(in state: RandRState) -> RandR.OutputInfo? {
        guard state.outputs.count == 1, let only = state.outputs.first, isXvfb else { return nil }
        return only
    }

    /// Whether this name is Xvfb's own output, its framebuffer (false on any other server).
    package func isXvfbOutput(_ name: String) -> Bool {
        // A server without RandR 1.5 has no output to name: the change's own check refuses it.
        guard isXvfb, (try? requireRandR15()) != nil, let state = try? readState() else { return false }
        return xvfbOutput(in: state)?.name == name
    }

    /// Gives Xvfb's `screen` back its CRTC (its one mode is the framebuffer's size), as a plain Xvfb has it.
    private func relight(_ output: RandR.OutputInfo, _ state: RandRState) throws {
        try OutputConfigurator(connection).apply(output: output.name, .size(connection.rootSize(), refreshRate: nil), origin: .zero,
                                                 in: state)
    }

    /// The names of the server's outputs (connectors).
    public var outputNames: [String] { ((try? readState())?.outputs ?? []).map(\.name).sorted() }

    /// A monitor's frame on the desktop, if it is active.
    public func monitorFrame(named name: String) -> Rect? {
        guard let state = try? readState(), let m = state.monitor(named: name) else { return nil }
        return m.frame
    }

    /// Sets a monitor's mode: an output gets a mode of that size (the nearest to `refreshRate` within
    /// 0.5 Hz when given; made when the server has none of that size) at its position; a virtual monitor
    /// is redefined with that size at its position. Returns the mode set.
    /// `rotation` turns the monitor too (nil: as it is turned now).
    @discardableResult
    public func setMode(_ name: String, size: Size, refreshRate: Double? = nil, rotation: MonitorRotation? = nil) throws -> ScreenMode {
        try setMode(name, size: size, refreshRate: refreshRate, rotation: rotation, outputsOnly: false)
    }

    private func setMode(_ name: String, size: Size, refreshRate: Double?, rotation: MonitorRotation? = nil, outputsOnly: Bool) throws -> ScreenMode {
        try Self.validate(name: name)
        try requireRandR15()
        let c = connection
        return try c.grabbed {
            let state = try readState()
            if let output = state.output(named: name) {
                try Self.checkTurn(output, rotation, state)
                return try OutputConfigurator(c).apply(output: name, .size(size, refreshRate: refreshRate), rotation: rotation?.randr,
                                                       makeMissing: true, in: state)
            }
            guard !outputsOnly else { throw ScreenError.noSuchScreen("output \(name.terminalEscaped)") }
            guard let monitor = state.monitor(named: name) else {
                throw ScreenError.noSuchScreen("\(name.terminalEscaped) (not plugged)")
            }
            try Self.refuseRate(refreshRate, virtual: name)
            try Self.refuseTurn(rotation, virtual: name)
            let resized = Rect(origin: monitor.frame.origin, size: size)
            try Self.checkFrame(name, resized, largest: state.largestScreen)
            // The same panel in another mode: its size in millimetres stays.
            try plugVirtual(name, frame: resized, primary: false, physicalSize: monitor.physicalSize, state)
            return ScreenMode(size: size)
        }
    }

    /// Sets an output to a WxH mode, as `xrandr --newmode/--addmode/--output … --mode` do; returns the mode.
    @discardableResult
    public func setOutputMode(_ name: String, width: Int, height: Int, refreshRate: Double? = nil,
                              rotation: MonitorRotation? = nil) throws -> ScreenMode {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw ServerControlError.invalidMonitor("mode \(width)x\(height)")
        }
        return try setMode(name, size: Size(width: Double(width), height: Double(height)), refreshRate: refreshRate, rotation: rotation,
                           outputsOnly: true)
    }

    /// Names RandR can take: not empty, at most 255 bytes, no NUL.
    package nonisolated static func validate(name: String) throws {
        if let fault = MonitorName.fault(in: name) { throw ServerControlError.invalidMonitor(fault) }
    }

    /// Virtual monitors and their changes need RandR 1.5.
    func requireRandR15() throws {
        let c = connection
        try c.checkAlive()
        let version = c.bounded { RandR.version(c) }
        try c.checkAlive()
        guard let v = version, v.major > 1 || (v.major == 1 && v.minor >= 5) else {
            throw X11Error.missingExtension(display: c.name, name: "RandR", needed: "1.5 (monitors)")
        }
    }
}
