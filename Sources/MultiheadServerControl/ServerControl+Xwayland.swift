internal import CXlib
import Glibc
import Multihead
import MultiheadX11
import MultiheadProcess

/// Xwayland's outputs, for the kit's wayland kind. Xwayland 22 names its RandR outputs XWAYLAND0, 1, …
/// whatever the Wayland output's name, and learns of a Wayland output after the compositor has made it;
/// so the kit waits for the output to appear and names it with a monitor of its own.
extension ServerControl {
    /// Waits until Xwayland lights an output at `frame` (logical geometry, as xdg-output gives it): `output`
    /// when given, else one that no client-defined monitor holds. Returns the output's name; nil when none
    /// did within `seconds`.
    package func waitForXwaylandOutput(at frame: Rect, named output: String? = nil, within seconds: Double) throws -> String? {
        try waitForRandR(within: seconds) { state -> String? in
            // An automatic monitor is named as its one output; any other holds its outputs.
            let held = Set(state.monitors.filter { m in
                state.name(of: m) != (m.outputs.count == 1 ? state.outputs.first { $0.id == m.outputs[0] }?.name : nil)
            }.flatMap(\.outputs))
            return state.outputs.first { o in
                guard output.map({ o.name == $0 }) ?? !held.contains(o.id), let crtc = state.crtc(o.crtc) else { return false }
                return Rect(x: Double(crtc.x), y: Double(crtc.y), width: Double(crtc.width), height: Double(crtc.height)) == frame
            }?.name
        }
    }

    /// Names an output with a RandR monitor whose geometry follows the output's (a zero geometry is RandR's
    /// "as the outputs are"), primary when `primary`, replacing a monitor of that name.
    package func nameOutput(_ output: String, as name: String, primary: Bool) throws {
        let state = try readState()
        guard let o = state.output(named: output) else { throw ScreenError.noSuchScreen(output.terminalEscaped) }
        if state.monitor(named: name) != nil { try deleteMonitor(name: name) }
        try addMonitor(name: name, frame: .zero, primary: primary, outputs: [o.id], physicalSize: Size(width: 0, height: 0))
    }

    /// How Xwayland shows an output turned: its CRTC's rotation, which Xwayland takes from the Wayland
    /// output's transform, whoever set it (the kit, or an output manager such as wlr-randr or kanshi).
    /// Nil when the output is not lit.
    package func outputRotation(_ output: String) throws -> MonitorRotation? {
        let state = try readState()
        guard let o = state.output(named: output), let crtc = state.crtc(o.crtc) else { return nil }
        return MonitorRotation(randr: crtc.rotation)
    }

    /// A round trip: every request sent so far has been handled. `XSync`.
    package func roundTrip() throws {
        let c = connection
        try c.checkAlive()
        c.sync()
        try c.checkAlive()
    }

    /// Waits until Xwayland has no output named `output` (the compositor destroyed its Wayland output);
    /// false when it still has one after `seconds`.
    package func waitUntilXwaylandDropped(_ output: String, within seconds: Double) throws -> Bool {
        try waitForRandR(within: seconds) { state in state.output(named: output) == nil ? true : nil } ?? false
    }

    /// Reads RandR until `check` finds what it looks for, waiting for RandR's events between reads (selected
    /// on the root for the wait alone, so that no event is left queued on this connection after it).
    private func waitForRandR<T>(within seconds: Double, _ check: (RandRState) -> T?) throws -> T? {
        let c = connection
        let deadline = MonotonicClock.now() + seconds
        let mask = RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask
        try c.trap("RRSelectInput") { XRRSelectInput(c.display, c.root, Int32(mask)) }
        defer {
            // Deselected and answered: no event of the wait can come after the drain.
            XRRSelectInput(c.display, c.root, 0)
            c.bounded { _ = XSync(c.display, 0) }
            drainEvents()
        }
        while true {
            // Selected before the read: a change after it sends an event, which ends the wait below.
            if let found = check(try readState()) { return found }
            guard waitForEvent(until: deadline) else { return nil }
            drainEvents()
        }
    }

    /// Whether an event came before `deadline` (one already queued counts).
    func waitForEvent(until deadline: Double) -> Bool {
        let c = connection
        while !c.isLost {
            if XPending(c.display) > 0 { return true }
            let left = deadline - MonotonicClock.now()
            guard left > 0 else { return false }
            var p = pollfd(fd: XConnectionNumber(c.display), events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, Int32(min(left * 1000, 1000).rounded(.up)))
        }
        return false
    }

    func drainEvents() {
        let c = connection
        var e = XEvent()
        while !c.isLost && XPending(c.display) > 0 { XNextEvent(c.display, &e) }
    }
}
