internal import CXlib
import Multihead
import MultiheadX11

extension ServerControl {
    /// The server's screens as a client of it sees them now, read over this connection (RandR's monitors
    /// and outputs, as `multihead screens` lists them), each with its scale (`ScreenScalePolicy`: the
    /// factors given by name first).
    public func screens(scaleFactors: [String: Double] = [:]) throws -> [ScreenDescription] {
        try X11Backend.snapshot(over: connection, scaleFactors: scaleFactors)
    }

    /// The screens and the configuration serial they are (the socket's `screens`).
    package func configuration(scaleFactors: [String: Double] = [:]) throws -> (screens: [ScreenDescription], serial: UInt32) {
        try X11Backend.configuration(over: connection, scaleFactors: scaleFactors)
    }

    /// Runs a change under a server grab and answers the configuration serial it made, read before any
    /// other client can change anything (an output manager reacting to it comes after).
    package func changing<T>(_ body: () throws -> T) throws -> (result: T, serial: UInt32) {
        let c = connection
        return try c.grabbed {
            let result = try body()
            return (result, X11Backend.configurationSerial(over: c))
        }
    }

    /// Moves RandR's configuration timestamp without changing anything: one CRTC set again as it is.
    /// Monitors (`RRSetMonitor`, `RRDeleteMonitor`) move no timestamp, so without this the configuration
    /// serial would not say that a virtual monitor came or went. `state`: the CRTCs as they are now, read
    /// under the caller's grab (nil: read here). `XRRSetCrtcConfig`.
    package func stampConfiguration(_ known: RandRState? = nil) throws {
        let c = connection
        try c.grabbed {
            let state = try known ?? readState()
            guard let (id, crtc) = state.resources.crtcs.entries.first else { return }
            try OutputConfigurator(c).setCrtc(id, state, x: crtc.x, y: crtc.y, mode: crtc.mode, rotation: crtc.rotation,
                                              outputs: crtc.outputs, request: "RRSetCrtcConfig (as it is: the configuration's timestamp)")
        }
    }
}

extension ServerControl {
    /// Sets the screen (the root window) to the bounding box of the lit CRTCs from (0, 0), as xrandr and
    /// a desktop's display daemon do after a change: what a real Xorg's screen is. Nothing when no CRTC is
    /// lit, or the screen has that size already; on Xvfb, whose one output's mode is its framebuffer, the
    /// screen stays as it is. `XRRSetScreenSize`.
    package func fitScreenToMonitors() throws {
        let c = connection
        try c.grabbed {
            let state = try readState()
            guard xvfbOutput(in: state) == nil else { return }
            let lit = state.resources.crtcs.values.filter { $0.mode != 0 && $0.width > 0 && $0.height > 0 }
            guard !lit.isEmpty else { return }
            let width = lit.map { Int($0.x) + Int($0.width) }.max() ?? 0, height = lit.map { Int($0.y) + Int($0.height) }.max() ?? 0
            let now = c.rootSize()
            guard width > 0, height > 0, (width, height) != (Int(now.width), Int(now.height)) else { return }
            try c.trap("RRSetScreenSize \(width)x\(height)") {
                XRRSetScreenSize(c.display, c.root, Int32(width), Int32(height),
                                 Int32((Double(width) * 25.4 / 96).rounded()), Int32((Double(height) * 25.4 / 96).rounded()))
            }
        }
    }
}
