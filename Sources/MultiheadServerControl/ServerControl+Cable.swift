internal import CXlib
import Multihead
import MultiheadX11

/// Multihead's own Xorg driver (`Driver/`): each output has a cable that a client plugs and pulls
/// through two output properties, and the server re-probes the output as it does on a real hotplug.
extension ServerControl {
    /// The property that says whether an output's cable is in (INTEGER/32, 0 or 1).
    static let cableConnectedName = "MULTIHEAD_CONNECTED"
    /// The property that holds the EDID of the monitor at the cable's end (INTEGER/8).
    static let cableEDIDName = "MULTIHEAD_EDID"

    /// Whether an output is one of Multihead's driver's, which has a cable (one round trip, through the
    /// RandR reader).
    func hasCable(output: UInt) -> Bool {
        let c = connection
        let atom = atom(Self.cableConnectedName, create: true)
        return c.bounded { RandRBatch.propertyNames(c, outputs: [output])[output] ?? [] }.contains(atom)
    }

    /// Plugs (with the monitor's EDID) or pulls an output's cable, then probes: the driver has re-read the
    /// output (its connection, its `EDID` property, its modes) and told every client when this returns.
    /// `XRRChangeOutputProperty`, then a probe (`xcb_randr_get_screen_resources`).
    func setCable(output: UInt, connected: Bool, edid: [UInt8]? = nil) throws {
        let c = connection
        let d = c.display
        if let edid {
            // On its own: a refused EDID is the monitor's fault (a usage error), and the cable stays as it was.
            do {
                try c.trap("RRChangeOutputProperty \(Self.cableEDIDName)") {
                    edid.withUnsafeBufferPointer {
                        XRRChangeOutputProperty(d, RROutput(output), Atom(atom(Self.cableEDIDName, create: true)), XA_INTEGER, 8, PropModeReplace,
                                                $0.baseAddress, Int32(edid.count))
                    }
                }
            } catch let X11Error.protocolError(_, request, error, _) {
                throw ServerControlError.invalidMonitor("Multihead's driver refused the monitor's EDID (\(request): \(error)); its log says why")
            }
        }
        try c.trap("RRChangeOutputProperty \(Self.cableConnectedName)") {
            // Format 32 takes C longs.
            var value: CLong = connected ? 1 : 0
            withUnsafeBytes(of: &value) {
                XRRChangeOutputProperty(d, RROutput(output), Atom(atom(Self.cableConnectedName, create: true)), XA_INTEGER, 32,
                                        PropModeReplace, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
            }
        }
        probe()
    }

    /// Plugs a monitor into a cabled output: a new EDID (the given one, or one whose preferred mode is the
    /// frame's size) when one is given, the cable is out, or the monitor there has no mode of that size;
    /// then the output lit at the frame's origin.
    func plugCable(_ output: RandR.OutputInfo, frame: Rect, primary: Bool, refreshRate: Double?, edid: [UInt8]?,
                   rotation: MonitorRotation = .normal, _ state: RandRState) throws {
        /// Whether the monitor on an output offers a mode of the frame's size.
        func hasSize(_ output: RandR.OutputInfo?, _ state: RandRState) -> Bool {
            output?.modes.contains(where: { state.resources.modes[$0]?.mode.size == frame.size }) ?? false
        }
        /// Lights the output in a mode of the frame's size, as the monitor on it now offers.
        func light(_ state: RandRState) throws {
            guard hasSize(state.output(named: output.name), state) else {
                throw ServerControlError.invalidMonitor(
                    "the monitor on \(output.name.terminalEscaped) has no \(Int(frame.width))x\(Int(frame.height)) mode in its EDID")
            }
            try OutputConfigurator(connection).apply(output: output.name, .size(frame.size, refreshRate: refreshRate), origin: frame.origin,
                                                     rotation: rotation.randr, primary: primary, in: state)
        }
        guard edid != nil || !output.connected || !hasSize(output, state) else { return try light(state) }
        let bytes = try edid ?? MonitorIdentity(model: Self.defaultModel(output.name)).edid(preferred: frame.size, refreshRate: refreshRate,
                                                                                      connector: output.name)
        let before = cable(of: output)
        try setCable(output: output.id, connected: true, edid: bytes)
        do {
            try light(readState())
        } catch {
            // A refused plug leaves the server as it was: the cable and its monitor as before (a profile
            // tool or a toolkit would fingerprint a half-plugged output).
            try? setCable(output: output.id, connected: before.connected, edid: before.edid)
            throw error
        }
    }

    /// An output's cable as it is: whether it is in, and the EDID at its end (empty: none). Two round trips.
    private func cable(of output: RandR.OutputInfo) -> (connected: Bool, edid: [UInt8]) {
        let c = connection
        let atom = atom(Self.cableEDIDName, create: true)
        let edid = c.bounded { RandRBatch.outputProperties(c, outputs: [output.id]) }[output.id]?[atom]?.bytes ?? []
        return (output.connected, edid)
    }
}

extension ServerControl {
    /// The monitor name of the EDID a cable gets when the plug names no model: the connector's ("DP-1",
    /// "HDMI-2"), so that each monitor of a layout has a label of its own (Chromium labels a screen with
    /// it, Qt shows it as the model) that says which output it is; "Multihead" for a name an EDID cannot
    /// hold (over 13 characters, or not printable ASCII).
    public nonisolated static func defaultModel(_ output: String) -> String {
        output.count <= 13 && output.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? output : "Multihead"
    }
}
