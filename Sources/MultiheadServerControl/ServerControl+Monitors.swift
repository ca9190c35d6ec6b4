internal import CXlib
import Multihead
import MultiheadX11

extension ServerControl {
    /// Adds a client-defined monitor over `outputs` (none: a virtual monitor). `XRRSetMonitor`.
    /// `physicalSize` nil: 96 pixels per inch, so that the size is plausible.
    package func addMonitor(name: String, frame: Rect, primary: Bool, outputs: [UInt] = [], physicalSize: Size? = nil) throws {
        let c = connection
        try c.trap("RRSetMonitor \(name.terminalEscaped)") {
            guard let m = XRRAllocateMonitor(c.display, Int32(outputs.count)) else { return }
            for (i, o) in outputs.enumerated() { m.pointee.outputs[i] = RROutput(o) }
            defer { XFree(m) }
            m.pointee.name = Atom(atom(name, create: true))
            m.pointee.primary = primary ? 1 : 0
            m.pointee.automatic = 0
            m.pointee.x = Int32(frame.minX)
            m.pointee.y = Int32(frame.minY)
            m.pointee.width = Int32(frame.width)
            m.pointee.height = Int32(frame.height)
            let mm = physicalSize ?? Size(width: frame.width * 25.4 / 96, height: frame.height * 25.4 / 96)
            m.pointee.mwidth = Int32(mm.width.rounded())
            m.pointee.mheight = Int32(mm.height.rounded())
            XRRSetMonitor(c.display, c.root, m)
        }
    }

    /// Deletes a client-defined monitor. `XRRDeleteMonitor`.
    package func deleteMonitor(name: String) throws {
        let c = connection
        let atom = Atom(atom(name, create: false))
        guard atom != 0 else { throw ScreenError.noSuchScreen(name.terminalEscaped) }
        try c.trap("RRDeleteMonitor \(name.terminalEscaped)") { XRRDeleteMonitor(c.display, c.root, atom) }
    }

    /// An atom by name, cached: atoms live as long as the server. `XInternAtom`.
    func atom(_ name: String, create: Bool) -> UInt {
        if let a = atoms[name] { return a }
        let a = UInt(XInternAtom(connection.display, name, create ? 0 : 1))
        if a != 0 { atoms[name] = a }
        return a
    }

    /// Makes the server probe its outputs, as `xrandr` does. `xcb_randr_get_screen_resources`.
    package func probe() {
        let c = connection
        guard !c.isLost else { return }
        c.bounded { RandRBatch.probe(c) }
    }
}
