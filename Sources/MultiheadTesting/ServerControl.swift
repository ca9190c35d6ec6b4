internal import CXlib
import Foundation
import Multihead
import MultiheadX11

/// A connection for changing an X server's monitors as a person or a cable would: plug and unplug
/// virtual monitors, set output modes. The test kit's servers use one; the CLI's `plug` uses one too.
@MainActor
public final class ServerControl {
    let connection: XConnection
    private var atoms: [String: UInt] = [:]

    /// Connects to a display (nil: `DISPLAY`).
    public init(display: String?) throws {
        connection = try XConnection(name: display)
    }

    /// The display name in use.
    public var displayName: String { connection.name }

    /// Closes the connection.
    public func close() { connection.close() }

    /// Whether the server looks like a private test server (Xvfb's single output `screen`, or Xorg's dummy
    /// outputs DUMMYn) rather than a desktop with real monitors, whose layout a person relies on.
    public var isPrivateServer: Bool {
        guard let res = RandR.resources(connection) else { return false }
        let names = res.outputs.values.map(\.name)
        return !names.isEmpty && names.allSatisfy { $0 == "screen" || $0.hasPrefix("DUMMY") }
    }

    /// Plugs (or redefines) a virtual monitor.
    public func plug(_ name: String, frame: Rect, primary: Bool = false) throws {
        guard frame.isFinite, !frame.isEmpty, frame.minX >= 0, frame.minY >= 0, frame.maxX <= 32767, frame.maxY <= 32767 else {
            throw VirtualServerError.invalidMonitor("\(name) \(frame): the frame must lie within 0…32767")
        }
        guard !name.isEmpty else { throw VirtualServerError.invalidMonitor("a monitor needs a name") }
        if let output = outputNames.first(where: { $0 == name }) {
            guard output != "screen" else {
                throw VirtualServerError.invalidMonitor("\"screen\" is Xvfb's own output; plug a virtual monitor under another name")
            }
            try plugOutput(output, frame: frame, primary: primary, refreshRate: 60)
            return
        }
        try setMonitor(name: name, frame: frame, primary: primary)
    }

    /// The names of the server's outputs (connectors).
    public var outputNames: [String] {
        (RandR.resources(connection)?.outputs.values.map(\.name) ?? []).sorted()
    }

    /// Unplugs a monitor: an output's CRTC goes off (`xrandr --output NAME --off`); a virtual monitor is
    /// deleted.
    public func unplug(_ name: String) throws {
        let c = connection
        if let o = RandR.resources(c)?.outputs.values.first(where: { $0.name == name }) {
            guard o.crtc != 0 else { throw VirtualServerError.noSuchMonitor("\(name) (not plugged)") }
            try turnOffOutput(name)
            return
        }
        let known = (RandR.monitors(c) ?? []).contains { RandR.atomName(c, $0.nameAtom) == name }
        guard known else { throw VirtualServerError.noSuchMonitor(name) }
        try deleteMonitor(name: name)
    }

    /// Defines (or redefines) a virtual monitor with no output. `XRRSetMonitor`.
    ///
    /// Xvfb 21.1 refuses `XRRSetMonitor` for a name that exists (BadValue), so a redefinition deletes and
    /// adds under a server grab: other clients never see the monitor missing.
    func setMonitor(name: String, frame: Rect, primary: Bool) throws {
        let c = connection
        let exists = (RandR.monitors(c) ?? []).contains { RandR.atomName(c, $0.nameAtom) == name }
        if exists {
            XGrabServer(c.display)
            defer { XUngrabServer(c.display); XSync(c.display, 0) }
            try deleteMonitor(name: name)
            try addMonitor(name: name, frame: frame, primary: primary)
        } else {
            try addMonitor(name: name, frame: frame, primary: primary)
        }
    }

    package func addMonitor(name: String, frame: Rect, primary: Bool) throws {
        let c = connection
        try c.trap("RRSetMonitor \(name)") {
            guard let m = XRRAllocateMonitor(c.display, 0) else { return }
            defer { XFree(m) }
            m.pointee.name = Atom(atom(name, create: true))
            m.pointee.primary = primary ? 1 : 0
            m.pointee.automatic = 0
            m.pointee.x = Int32(frame.minX)
            m.pointee.y = Int32(frame.minY)
            m.pointee.width = Int32(frame.width)
            m.pointee.height = Int32(frame.height)
            // 96 dpi, so that the physical size is plausible.
            m.pointee.mwidth = Int32((frame.width * 25.4 / 96).rounded())
            m.pointee.mheight = Int32((frame.height * 25.4 / 96).rounded())
            XRRSetMonitor(c.display, c.root, m)
        }
    }

    /// Deletes a client-defined monitor. `XRRDeleteMonitor`.
    package func deleteMonitor(name: String) throws {
        let c = connection
        let atom = Atom(atom(name, create: false))
        guard atom != 0 else { throw VirtualServerError.noSuchMonitor(name) }
        try c.trap("RRDeleteMonitor \(name)") { XRRDeleteMonitor(c.display, c.root, atom) }
    }

    /// An atom by name, cached: atoms live as long as the server. `XInternAtom`.
    private func atom(_ name: String, create: Bool) -> UInt {
        if let a = atoms[name] { return a }
        let a = UInt(XInternAtom(connection.display, name, create ? 0 : 1))
        if a != 0 { atoms[name] = a }
        return a
    }

    /// Takes an output's CRTC away (`xrandr --output NAME --off`). `XRRSetCrtcConfig`.
    func turnOffOutput(_ name: String) throws {
        let c = connection
        try withResources { res in
            guard let (_, crtc) = try find(output: name, res) else { throw VirtualServerError.noSuchMonitor(name) }
            guard crtc != 0 else { return }
            _ = try c.trap("RRSetCrtcConfig off") {
                XRRSetCrtcConfig(c.display, res, crtc, Time(CurrentTime), 0, 0, RRMode(0), Rotation(RR_Rotate_0), nil, 0)
            }
        }
    }

    /// Sets an output to a WxH mode (creating it and adding it to the output when the output lacks it),
    /// keeping the output's position, or at (0, 0) when it was off; returns the mode's ID.
    public func setOutputMode(_ name: String, width: Int, height: Int, refreshRate: Double) throws -> UInt64 {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw VirtualServerError.invalidMonitor("mode \(width)x\(height)")
        }
        let c = connection
        var origin = Point.zero
        if let o = RandR.resources(c)?.outputs.values.first(where: { $0.name == name }), o.crtc != 0,
           let crtc = RandR.resources(c)?.crtcs[o.crtc] {
            origin = Point(x: Double(crtc.x), y: Double(crtc.y))
        }
        return try plugOutput(name, frame: Rect(origin: origin, size: Size(width: Double(width), height: Double(height))),
                              primary: false, refreshRate: refreshRate)
    }

    /// Plugs an output as a cable would: a mode of the frame's size (made if missing), a CRTC (its own or a
    /// free one), the screen grown to hold it (`XRRSetScreenSize`), all under a server grab so that clients
    /// see one change. `XRRSetCrtcConfig`.
    @discardableResult
    func plugOutput(_ name: String, frame: Rect, primary: Bool, refreshRate: Double) throws -> UInt64 {
        let c = connection
        XGrabServer(c.display)
        defer { XUngrabServer(c.display); XSync(c.display, 0) }
        let (output, mode) = try withResources { res -> (RROutput, RRMode) in
            guard let (output, _) = try find(output: name, res) else { throw VirtualServerError.noSuchMonitor(name) }
            return (output, try modeID(for: output, width: Int(frame.width), height: Int(frame.height), refreshRate: refreshRate, res))
        }
        try withResources { res in
            guard let (_, current) = try find(output: name, res) else { throw VirtualServerError.noSuchMonitor(name) }
            let crtc = current != 0 ? current : try freeCrtc(for: output, res)
            try growScreen(toHold: frame, res)
            var outputs = [output]
            let status = try c.trap("RRSetCrtcConfig \(name) \(frame)") {
                XRRSetCrtcConfig(c.display, res, crtc, Time(CurrentTime), Int32(frame.minX), Int32(frame.minY), mode,
                                 Rotation(RR_Rotate_0), &outputs, 1)
            }
            guard status == RRSetConfigSuccess else {
                throw X11Error.refused(display: c.name, request: "RRSetCrtcConfig", status: Int(status))
            }
            if primary { try c.trap("RRSetOutputPrimary") { XRRSetOutputPrimary(c.display, c.root, output) } }
        }
        // A monitor that is plugged in announces all its modes at once (its EDID); the dummy driver fills
        // a connected output's list when probed, so probe now, inside the grab.
        probe()
        return UInt64(mode)
    }

    /// Makes the server probe its outputs, as `xrandr` does. `XRRGetScreenResources`.
    func probe() {
        if let res = XRRGetScreenResources(connection.display, connection.root) { XRRFreeScreenResources(res) }
    }

    /// A CRTC that drives nothing and can drive the output.
    private func freeCrtc(for output: RROutput, _ res: UnsafeMutablePointer<XRRScreenResources>) throws -> RRCrtc {
        let d = connection.display
        for i in 0..<Int(res.pointee.ncrtc) {
            let id = res.pointee.crtcs[i]
            guard let info = XRRGetCrtcInfo(d, res, id) else { continue }
            defer { XRRFreeCrtcInfo(info) }
            let possible = (0..<Int(info.pointee.npossible)).map { info.pointee.possible[$0] }
            if info.pointee.noutput == 0, possible.contains(output) { return id }
        }
        throw VirtualServerError.invalidMonitor("no free CRTC for output \(output)")
    }

    /// Grows the screen (never shrinks it) to hold every active CRTC and `frame`. `XRRSetScreenSize`.
    private func growScreen(toHold frame: Rect, _ res: UnsafeMutablePointer<XRRScreenResources>) throws {
        let c = connection
        var root: CXlib.Window = 0, x: Int32 = 0, y: Int32 = 0, w: UInt32 = 0, h: UInt32 = 0, border: UInt32 = 0, depth: UInt32 = 0
        XGetGeometry(c.display, Drawable(c.root), &root, &x, &y, &w, &h, &border, &depth)
        let needW = max(Int(w), Int(frame.maxX)), needH = max(Int(h), Int(frame.maxY))
        guard needW > Int(w) || needH > Int(h) else { return }
        var minW: Int32 = 0, minH: Int32 = 0, maxW: Int32 = 0, maxH: Int32 = 0
        XRRGetScreenSizeRange(c.display, c.root, &minW, &minH, &maxW, &maxH)
        guard needW <= Int(maxW), needH <= Int(maxH) else {
            throw VirtualServerError.invalidMonitor("\(frame) does not fit the server's largest screen \(maxW)x\(maxH)")
        }
        try c.trap("RRSetScreenSize \(needW)x\(needH)") {
            XRRSetScreenSize(c.display, c.root, Int32(needW), Int32(needH),
                             Int32((Double(needW) * 25.4 / 96).rounded()), Int32((Double(needH) * 25.4 / 96).rounded()))
        }
    }

    private func modeID(for output: RROutput, width: Int, height: Int, refreshRate: Double,
                        _ res: UnsafeMutablePointer<XRRScreenResources>) throws -> RRMode {
        let c = connection
        guard let info = XRROutputInfoFor(c.display, res, output) else { throw VirtualServerError.noSuchMonitor("output \(output)") }
        defer { XRRFreeOutputInfo(info) }
        let offered = Set((0..<Int(info.pointee.nmode)).map { info.pointee.modes[$0] })
        // A mode of that size the output offers; else one the server knows, added to the output; else a new one.
        var known: RRMode?
        for i in 0..<Int(res.pointee.nmode) {
            let m = res.pointee.modes[i]
            guard Int(m.width) == width, Int(m.height) == height else { continue }
            if offered.contains(m.id) { return m.id }
            if known == nil { known = m.id }
        }
        if let known {
            try c.trap("RRAddOutputMode") { XRRAddOutputMode(c.display, output, known) }
            return known
        }
        let name = "\(width)x\(height)_mh"
        guard let mi = XRRAllocModeInfo(name, Int32(name.utf8.count)) else { throw VirtualServerError.invalidMonitor(name) }
        defer { XRRFreeModeInfo(mi) }
        // Simple timings whose dotClock / (hTotal × vTotal) is the refresh rate asked for.
        let hTotal = UInt32(width + 160), vTotal = UInt32(height + 30)
        mi.pointee.width = UInt32(width)
        mi.pointee.height = UInt32(height)
        mi.pointee.hSyncStart = UInt32(width + 48); mi.pointee.hSyncEnd = UInt32(width + 80); mi.pointee.hTotal = hTotal
        mi.pointee.vSyncStart = UInt32(height + 3); mi.pointee.vSyncEnd = UInt32(height + 9); mi.pointee.vTotal = vTotal
        mi.pointee.dotClock = UInt(max(0, refreshRate) * Double(hTotal) * Double(vTotal))
        let mode = try c.trap("RRCreateMode \(name)") { XRRCreateMode(c.display, c.root, mi) }
        try c.trap("RRAddOutputMode \(name)") { XRRAddOutputMode(c.display, output, mode) }
        return mode
    }

    private func find(output name: String, _ res: UnsafeMutablePointer<XRRScreenResources>) throws -> (RROutput, RRCrtc)? {
        let c = connection
        for i in 0..<Int(res.pointee.noutput) {
            let id = res.pointee.outputs[i]
            guard let o = XRRGetOutputInfo(c.display, res, id) else { continue }
            defer { XRRFreeOutputInfo(o) }
            let n = String(decoding: UnsafeRawBufferPointer(start: o.pointee.name, count: Int(o.pointee.nameLen)), as: UTF8.self)
            if n == name { return (id, o.pointee.crtc) }
        }
        return nil
    }

    private func withResources<T>(_ body: (UnsafeMutablePointer<XRRScreenResources>) throws -> T) throws -> T {
        try connection.checkAlive()
        // The Current variant does not make the server probe its outputs (which can change their mode lists).
        guard let res = XRRGetScreenResourcesCurrent(connection.display, connection.root) else {
            throw X11Error.refused(display: connection.name, request: "RRGetScreenResourcesCurrent", status: -1)
        }
        defer { XRRFreeScreenResources(res) }
        return try body(res)
    }
}

/// `XRRGetOutputInfo`, named for what it returns.
private func XRROutputInfoFor(_ d: OpaquePointer, _ res: UnsafeMutablePointer<XRRScreenResources>, _ o: RROutput)
    -> UnsafeMutablePointer<XRROutputInfo>? { XRRGetOutputInfo(d, res, o) }
