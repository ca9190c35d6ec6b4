import Foundation
import Multihead
import MultiheadServerControl
import MultiheadX11
import MultiheadProcess

/// Changing this server's monitors, through the kit's own connection (`ServerControl`).
extension VirtualServer {
    /// Plugs a monitor: an output's name (DUMMY1 on Xorg+dummy) gets a mode of the frame's size (nearest
    /// `refreshRate` when given) on a free CRTC at the frame's position; any other name becomes a virtual
    /// monitor (`XRRSetMonitor`), redefined if it exists. Returns once the server has applied it.
    /// `physicalSize` (millimetres): a virtual monitor's size as RandR reports it; an output's, in the EDID
    /// it is plugged with. With its pixels it decides the screen's scale (`ScreenScalePolicy`).
    /// `rotation`: the monitor turned (a portrait monitor: `.left` or `.right`), the frame's size its mode;
    /// on kinds that can (`Kind.canTurnMonitors`), else `invalidMonitor`.
    public func plug(_ name: String, frame: Rect, primary: Bool = false, refreshRate: Double? = nil, physicalSize: Size? = nil,
                     rotation: MonitorRotation = .normal) throws {
        try refuseTurn(rotation)
        try implementation.plug(name, frame: frame, primary: primary, refreshRate: refreshRate, physicalSize: physicalSize,
                                identity: nil, rotation: rotation, on: self)
    }

    /// Plugs a monitor given xrandr's geometry "WxH+X+Y".
    public func plug(_ name: String, _ geometry: String, primary: Bool = false, physicalSize: Size? = nil,
                     rotation: MonitorRotation = .normal) throws {
        guard let frame = Rect(geometry: geometry) else { throw ServerControlError.invalidMonitor("geometry \(geometry)") }
        try plug(name, frame: frame, primary: primary, physicalSize: physicalSize, rotation: rotation)
    }

    /// A turn this server's kind cannot make, refused before anything changes.
    private func refuseTurn(_ rotation: MonitorRotation?) throws {
        if let refusal = kind.refusal(toTurn: rotation) { throw ServerControlError.invalidMonitor(refusal) }
    }

    /// Plugs a monitor that says who it is: the output publishes the monitor's EDID (made from `monitor`,
    /// its preferred mode the geometry's size at `refreshRate`, 60 Hz unless given, in a DisplayID block
    /// where the base block cannot hold it; its further `modes` listed too) and then lights, as a cable
    /// plugged in does; `unplug` takes the EDID away again. On `.xorg` it is a cable: the output is
    /// connected with that EDID, its modes the EDID's, and `unplug` disconnects it. Outputs only (`.xorg`'s
    /// DP-1…HDMI-8, Xorg+dummy's DUMMY0…DUMMY15): a virtual monitor has no connector (`invalidMonitor`).
    ///
    /// ```swift
    /// let server = try await VirtualServer.start(.xorg)
    /// defer { server.stop() }
    /// let dell = VirtualServer.MonitorIdentity(manufacturer: "DEL", model: "DELL U2720Q", serialNumber: "ABC123",
    ///                                          physicalSize: Size(width: 597, height: 336),
    ///                                          modes: [ScreenMode(width: 1920, height: 1080)])
    /// try server.plug("HDMI-1", "2560x1440+1920+0", monitor: dell)
    /// ```
    public func plug(_ name: String, _ geometry: String, monitor: MonitorIdentity, primary: Bool = false, refreshRate: Double? = nil,
                     rotation: MonitorRotation = .normal) throws {
        guard let frame = Rect(geometry: geometry) else { throw ServerControlError.invalidMonitor("geometry \(geometry)") }
        try refuseTurn(rotation)
        try implementation.plug(name, frame: frame, primary: primary, refreshRate: refreshRate, physicalSize: nil, identity: monitor,
                                rotation: rotation, on: self)
    }

    /// Unplugs a monitor: an output's CRTC goes off; a virtual monitor is deleted (`XRRDeleteMonitor`).
    /// Unplugging the primary makes the new main screen's output primary, as a desktop does, unless
    /// `keepPrimary` (X's own rule: the primary stays on the dark output).
    public func unplug(_ name: String, keepPrimary: Bool = false) throws {
        try implementation.unplug(name, keepPrimary: keepPrimary, on: self)
    }

    /// Sets an output's mode to WxH (the nearest to `refreshRate` within 0.5 Hz when given; a CVT mode is
    /// made when the server has none of that size), as `xrandr --newmode/--addmode/--output … --mode` do;
    /// returns the mode set. `rotation` turns it too (nil: as it is turned).
    @discardableResult
    public func setOutputMode(_ output: String, width: Int, height: Int, refreshRate: Double? = nil,
                              rotation: MonitorRotation? = nil) throws -> ScreenMode {
        try refuseTurn(rotation)
        return try implementation.setMode(output, width: width, height: height, refreshRate: refreshRate, rotation: rotation, on: self)
    }

    /// The kit's own connection for changing this server's monitors. One that was lost (the server stopped
    /// answering for a while, `kill -STOP`) is replaced by a new one once the server answers again.
    public func controlConnection() throws -> MultiheadServerControl.ServerControl {
        try controlConnection(until: nil)
    }

    /// The control connection, a new one connecting by `until` (a `MonotonicClock` time) at the latest
    /// when that comes before the server's timeout.
    package func controlConnection(until: Double?) throws -> MultiheadServerControl.ServerControl {
        if let c = control, !c.isLost { return c }
        control?.close()
        control = nil
        let c = try MultiheadServerControl.ServerControl(display: display, timeout: timeout, connectBy: until)
        control = c
        return c
    }
}
