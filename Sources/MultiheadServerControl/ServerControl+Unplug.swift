internal import CXlib
import Multihead
import MultiheadX11

extension ServerControl {
    /// Unplugs a monitor: an output's CRTC goes off (`xrandr --output NAME --off`), and on Multihead's own
    /// Xorg driver its cable is pulled too (disconnected, its EDID gone); a virtual monitor is deleted. The
    /// check and the change happen under one server grab; a monitor that is not plugged is
    /// `ScreenError.noSuchScreen` ("… (not plugged)").
    ///
    /// Unplugging the primary makes the monitor that becomes main (the first of the rest by y, then x)
    /// primary, as a desktop's display daemon does; with `keepPrimary`, X's own rule holds (the primary
    /// stays on the dark output, and each client picks its own main). On Xvfb the monitor over `screen`
    /// hands it to the new main; with no monitor left `screen` goes dark (its automatic monitor would come
    /// back as a screen the size of the framebuffer).
    public func unplug(_ name: String, keepPrimary: Bool = false) throws {
        try Self.validate(name: name)
        try requireRandR15()
        let c = connection
        try c.grabbed {
            let state = try readState()
            if let output = state.output(named: name) {
                // Xvfb's one output is its framebuffer, not a connector: turning it off leaves the
                // automatic monitor and the screen as they were, so "unplugged" would be a lie.
                if xvfbOutput(in: state)?.id == output.id {
                    throw ServerControlError.invalidMonitor(
                        "\(name.terminalEscaped) is Xvfb's own output (its framebuffer), which cannot be unplugged; unplug the monitors plugged over it instead")
                }
                let wasPrimary = state.primaryOutput == output.id
                let cabled = hasCable(output: output.id)
                // A cable in with nothing lit (a monitor that stayed dark) is still a monitor to unplug.
                guard try OutputConfigurator(c).turnOff(output: name, in: state) || (cabled && output.connected) else {
                    throw ScreenError.noSuchScreen("\(name.terminalEscaped) (not plugged)")
                }
                // The cable is out: on Multihead's driver the output is disconnected (its EDID goes with it); on
                // the kit's other servers the EDID is deleted (a desktop's driver owns its outputs' EDIDs: left
                // alone there).
                if cabled {
                    try setCable(output: output.id, connected: false)
                } else if isPrivateServer {
                    try setEDID(nil, output: output.id)
                }
                // The monitors once the output is off: read again, as the server recomputes them.
                if wasPrimary && !keepPrimary { try setPrimaryOutput(Self.nextMain(after: Self.liveMonitors(readState()))?.outputs.first) }
                return
            }
            let before = Self.liveMonitors(state)
            guard let gone = before.first(where: { $0.name == name }) else {
                throw ScreenError.noSuchScreen("\(name.terminalEscaped) (not plugged)")
            }
            try deleteMonitor(name: name)
            // Xvfb's `screen` turned off moved the configuration's timestamp; else the CRTCs are as read.
            if try !handOver(from: gone, rest: before.filter { $0.name != name }, keepPrimary: keepPrimary, state) {
                try stampConfiguration(state)
            }
        }
    }

    /// After a virtual monitor `gone` went: Xvfb's `screen` and the primary go to the monitor that becomes
    /// main, or `screen` goes dark with no monitor left. The caller holds the grab. Whether a CRTC was set.
    private func handOver(from gone: LiveMonitor, rest: [LiveMonitor], keepPrimary: Bool, _ state: RandRState) throws -> Bool {
        let c = connection
        let lone = xvfbOutput(in: state)
        let heldScreen = lone.map { gone.outputs.contains($0.id) } ?? false
        let handPrimary = gone.primary && !keepPrimary
        guard heldScreen || handPrimary else { return false }
        guard let next = handPrimary ? Self.nextMain(after: rest, framebufferOutput: lone?.name)
            : (rest.first { $0.primary } ?? Self.nextMain(after: rest, framebufferOutput: lone?.name)) else {
            if heldScreen, let lone { return try OutputConfigurator(c).turnOff(output: lone.name, in: state) }
            return false
        }
        // Xvfb will not redefine a monitor under its own name: the new main is deleted and added again.
        try deleteMonitor(name: next.name)
        try addMonitor(name: next.name, frame: next.frame, primary: next.primary || handPrimary,
                       outputs: heldScreen ? lone.map { [$0.id] } ?? [] : next.outputs)
        return false
    }

    /// The monitor that becomes main when the primary goes: the first by y, then x (the model's order
    /// without a primary). Xvfb's own automatic monitor (named as its framebuffer's output,
    /// `framebufferOutput`) is not one.
    nonisolated static func nextMain(after monitors: [LiveMonitor], framebufferOutput: String? = nil) -> LiveMonitor? {
        monitors.filter { $0.name != framebufferOutput || $0.outputs.isEmpty }
            .min { ($0.frame.minY, $0.frame.minX) < ($1.frame.minY, $1.frame.minX) }
    }

    /// The name of RandR's primary output, if one is set.
    public func primaryOutputName() -> String? {
        guard let state = try? readState(), state.primaryOutput != 0 else { return nil }
        return state.output(state.primaryOutput)?.name
    }

    /// Makes an output RandR's primary (none: no primary). `XRRSetOutputPrimary`.
    func setPrimaryOutput(_ id: UInt?) throws {
        let c = connection
        try c.trap("RRSetOutputPrimary") { XRRSetOutputPrimary(c.display, c.root, RROutput(id ?? 0)) }
    }
}
