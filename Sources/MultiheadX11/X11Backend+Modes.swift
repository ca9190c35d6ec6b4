internal import CXlib
import Multihead

extension X11Backend {
    /// Sets a monitor's mode on the CRTC of its first active output, keeping position and rotation
    /// (`XRRSetCrtcConfig`); a virtual monitor has only its own mode.
    public func setMode(_ mode: ScreenMode, forScreenNamed name: String) throws {
        guard let c = connection else { throw X11Error.connectionLost(requestedDisplay ?? "") }
        try c.checkAlive()
        guard let res = XRRGetScreenResourcesCurrent(c.display, c.root) else {
            throw X11Error.refused(display: c.name, request: "RRGetScreenResourcesCurrent", status: -1)
        }
        defer { XRRFreeScreenResources(res) }
        guard let target = try activeOutput(named: name, c) else {
            throw ScreenError.refused(screen: name, reason: "it has no output with a CRTC")
        }
        guard let crtc = XRRGetCrtcInfo(c.display, res, RRCrtc(target.crtc)) else {
            throw ScreenError.refused(screen: name, reason: "its CRTC vanished")
        }
        defer { XRRFreeCrtcInfo(crtc) }
        var outputs = (0..<Int(crtc.pointee.noutput)).map { crtc.pointee.outputs[$0] }
        let status = try c.trap("RRSetCrtcConfig") {
            XRRSetCrtcConfig(c.display, res, RRCrtc(target.crtc), Time(CurrentTime), crtc.pointee.x, crtc.pointee.y,
                             RRMode(mode.id), crtc.pointee.rotation, &outputs, Int32(outputs.count))
        }
        guard status == RRSetConfigSuccess else {
            throw X11Error.refused(display: c.name, request: "RRSetCrtcConfig", status: Int(status))
        }
    }

    /// The first output with a CRTC of the monitor with this name.
    private func activeOutput(named name: String, _ c: XConnection) throws -> RandR.OutputInfo? {
        guard let monitors = RandR.monitors(c), let res = RandR.resources(c) else { return nil }
        for m in monitors where RandR.atomName(c, m.nameAtom) == name {
            return m.outputs.compactMap { res.outputs[$0] }.first { $0.crtc != 0 }
        }
        return nil
    }

    /// Sets a monitor's brightness on the gamma ramp of its first active output's CRTC.
    public func setBrightness(_ value: Double, forScreenNamed name: String) throws {
        guard let c = connection else { throw X11Error.connectionLost(requestedDisplay ?? "") }
        try c.checkAlive()
        guard let target = try activeOutput(named: name, c) else {
            throw ScreenError.refused(screen: name, reason: "it has no output with a CRTC")
        }
        try RandR.setBrightness(c, crtc: target.crtc, min(1, max(0, value)))
    }
}
