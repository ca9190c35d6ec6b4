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
        guard !name.isEmpty, !(RandR.resources(connection)?.outputs.values.contains { $0.name == name } ?? false) else {
            throw VirtualServerError.invalidMonitor("\"\(name)\" is empty or an output's name")
        }
        try setMonitor(name: name, frame: frame, primary: primary)
    }

    /// Unplugs a virtual monitor.
    public func unplug(_ name: String) throws {
        let c = connection
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

    /// Sets an output to a WxH mode, creating it (`XRRCreateMode`, `XRRAddOutputMode`) when the output
    /// lacks one; the output keeps its CRTC's position, or goes to (0, 0) on a free CRTC.
    public func setOutputMode(_ name: String, width: Int, height: Int, refreshRate: Double) throws -> UInt64 {
        let c = connection
        return try withResources { res in
            guard let (output, crtcNow) = try find(output: name, res) else { throw VirtualServerError.noSuchMonitor(name) }
            let mode = try modeID(for: output, width: width, height: height, refreshRate: refreshRate, res)
            // Re-read: adding a mode changes the resources.
            return try withResources { res2 in
                var crtc = crtcNow
                if crtc == 0, res2.pointee.ncrtc > 0 { crtc = res2.pointee.crtcs[0] }
                var x: Int32 = 0, y: Int32 = 0
                if let info = XRRGetCrtcInfo(c.display, res2, crtc) {
                    defer { XRRFreeCrtcInfo(info) }
                    if crtcNow != 0 { x = info.pointee.x; y = info.pointee.y }
                }
                var outputs = [output]
                let status = try c.trap("RRSetCrtcConfig \(name) \(width)x\(height)") {
                    XRRSetCrtcConfig(c.display, res2, crtc, Time(CurrentTime), x, y, mode, Rotation(RR_Rotate_0), &outputs, 1)
                }
                guard status == RRSetConfigSuccess else {
                    throw X11Error.refused(display: c.name, request: "RRSetCrtcConfig", status: Int(status))
                }
                return UInt64(mode)
            }
        }
    }

    private func modeID(for output: RROutput, width: Int, height: Int, refreshRate: Double,
                        _ res: UnsafeMutablePointer<XRRScreenResources>) throws -> RRMode {
        let c = connection
        guard let info = XRROutputInfoFor(c.display, res, output) else { throw VirtualServerError.noSuchMonitor("output \(output)") }
        defer { XRRFreeOutputInfo(info) }
        let offered = Set((0..<Int(info.pointee.nmode)).map { info.pointee.modes[$0] })
        for i in 0..<Int(res.pointee.nmode) {
            let m = res.pointee.modes[i]
            if Int(m.width) == width, Int(m.height) == height, offered.contains(m.id) { return m.id }
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
        guard let res = XRRGetScreenResources(connection.display, connection.root) else {
            throw X11Error.refused(display: connection.name, request: "RRGetScreenResources", status: -1)
        }
        defer { XRRFreeScreenResources(res) }
        return try body(res)
    }
}

/// `XRRGetOutputInfo`, named for what it returns.
private func XRROutputInfoFor(_ d: OpaquePointer, _ res: UnsafeMutablePointer<XRRScreenResources>, _ o: RROutput)
    -> UnsafeMutablePointer<XRROutputInfo>? { XRRGetOutputInfo(d, res, o) }
