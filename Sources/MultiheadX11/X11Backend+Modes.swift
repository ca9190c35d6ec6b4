internal import CXlib
import Multihead

extension X11Backend {
    /// Sets a monitor's mode on the CRTC of its first active output, keeping position and rotation
    /// (`XRRSetCrtcConfig`); a virtual monitor has only its own mode.
    public func setMode(_ mode: ScreenMode, forScreenNamed name: String) throws {
        guard let c = connection else { throw X11Error.connectionLost(requestedDisplay ?? "") }
        try c.checkAlive()
        guard let (output, crtc) = activeOutput(named: name, c) else {
            throw ScreenError.refused(screen: name, reason: "it has no output with a CRTC")
        }
        // XRRSetCrtcConfig needs the resources' timestamp, so the reply itself.
        guard let res = XRRGetScreenResourcesCurrent(c.display, c.root) else {
            throw X11Error.refused(display: c.name, request: "RRGetScreenResourcesCurrent", status: -1)
        }
        defer { XRRFreeScreenResources(res) }
        var outputs = crtc.outputs.map { RROutput($0) }
        let status = try c.trap("RRSetCrtcConfig") {
            XRRSetCrtcConfig(c.display, res, RRCrtc(output.crtc), Time(CurrentTime), crtc.x, crtc.y,
                             RRMode(mode.id), Rotation(crtc.rotation), &outputs, Int32(outputs.count))
        }
        guard status == RRSetConfigSuccess else {
            throw X11Error.refused(display: c.name, request: "RRSetCrtcConfig", status: Int(status))
        }
    }

    /// The first output with a CRTC of the monitor with this name, and that CRTC; names come from the
    /// reader's atom cache, so this costs the monitors and resources requests only.
    private func activeOutput(named name: String, _ c: XConnection) -> (RandR.OutputInfo, RandR.CrtcInfo)? {
        guard let monitors = RandR.monitors(c), let res = RandR.resources(c) else { return nil }
        for m in monitors where reader?.atomName(m.nameAtom) ?? RandR.atomName(c, m.nameAtom) == name {
            for o in m.outputs.compactMap({ res.outputs[$0] }) where o.crtc != 0 {
                if let crtc = res.crtcs[o.crtc] { return (o, crtc) }
            }
        }
        return nil
    }

    /// Sets a monitor's brightness on the gamma ramp of its first active output's CRTC.
    public func setBrightness(_ value: Double, forScreenNamed name: String) throws {
        guard let c = connection else { throw X11Error.connectionLost(requestedDisplay ?? "") }
        try c.checkAlive()
        guard let (output, _) = activeOutput(named: name, c) else {
            throw ScreenError.refused(screen: name, reason: "it has no output with a CRTC")
        }
        try RandR.setBrightness(c, crtc: output.crtc, min(1, max(0, value)))
    }
}
