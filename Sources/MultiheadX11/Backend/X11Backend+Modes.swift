internal import CXlib
import Multihead

extension X11Backend {
    /// Sets a monitor's mode on the CRTC of its first active output, keeping position and rotation, and
    /// growing the screen when the new mode needs room (the one CRTC-apply path, `OutputConfigurator`); a
    /// virtual monitor has only its own mode.
    public func setMode(_ mode: ScreenMode, forScreenNamed name: String) throws {
        guard let c = connection else { throw X11Error.connectionLost(requestedDisplay ?? "") }
        try c.checkAlive()
        guard let (output, _) = try activeOutput(named: name, c) else {
            throw ScreenError.refused(screen: name, reason: "it has no output with a CRTC")
        }
        let request: OutputConfigurator.Request = mode.backendID != 0
            ? .mode(id: mode.backendID) : .size(mode.size, refreshRate: mode.refreshRate > 0 ? mode.refreshRate : nil)
        try OutputConfigurator(c).apply(output: output.name, request)
    }

    /// The first output with a CRTC of the monitor with this name, and that CRTC, from the reader's cache
    /// (read again first when a RandR event emptied it).
    private func activeOutput(named name: String, _ c: XConnection) throws -> (RandR.OutputInfo, RandR.CrtcInfo)? {
        if reader?.resources == nil { _ = try readScreens(refreshResources: false) }
        if let found = cachedOutput(named: name) { return found }
        // Not in the cache: the monitor may be newer than the last event handled. Ask the server.
        _ = try readScreens(refreshResources: true)
        return cachedOutput(named: name)
    }

    private func cachedOutput(named name: String) -> (RandR.OutputInfo, RandR.CrtcInfo)? {
        guard let r = reader, r.resources != nil, let m = r.state.monitor(named: name) else { return nil }
        for o in m.outputs.compactMap(r.state.output) where o.crtc != 0 {
            if let crtc = r.state.crtc(o.crtc) { return (o, crtc) }
        }
        return nil
    }

    /// Sets a monitor's brightness on the gamma ramp of its first active output's CRTC.
    public func setBrightness(_ value: Double, forScreenNamed name: String) throws {
        guard let c = connection else { throw X11Error.connectionLost(requestedDisplay ?? "") }
        try c.checkAlive()
        guard let (output, _) = try activeOutput(named: name, c) else {
            throw ScreenError.refused(screen: name, reason: "it has no output with a CRTC")
        }
        let clamped = min(1, max(0, value))
        try RandR.setBrightness(c, crtc: output.crtc, clamped)
        reader?.recordBrightness(RandR.brightness(topOfRamp: UInt16(min(65535, (65535 * clamped).rounded()))), crtc: output.crtc)
    }
}
