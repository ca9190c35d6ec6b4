internal import CXlib
import Multihead

/// The seam for RandR reads: each function makes one request, copies what it needs into Swift values,
/// and frees the reply in the same scope.
@MainActor
package enum RandR {
    /// A mode from the screen resources' mode table.
    package struct ModeInfo: Equatable {
        package var mode: ScreenMode
        package var name: String

        /// Equal with the same mode XID too (`ScreenMode`'s equality leaves it out): a screen described
        /// from an equal table names the modes the server has now.
        package static func == (a: ModeInfo, b: ModeInfo) -> Bool {
            a.mode == b.mode && a.mode.backendID == b.mode.backendID && a.name == b.name
        }
    }

    /// An output (connector) with what a monitor needs of it.
    package struct OutputInfo: Equatable {
        package var id: UInt
        package var name: String
        package var crtc: UInt
        package var connected: Bool
        package var modes: [UInt]
        package var preferredCount: Int
        /// The CRTCs that can drive it.
        package var possibleCrtcs: [UInt] = []
        /// Its `EDID` property (the monitor's own description), when the read asked for it and there is one.
        package var edid: [UInt8]? = nil
    }

    /// A CRTC's position and mode.
    package struct CrtcInfo: Equatable {
        package var x: Int32, y: Int32, width: UInt32, height: UInt32
        package var mode: UInt
        package var rotation: UInt16
        /// The rotations and reflections it can take (RandR's bits): Xvfb's and the dummy driver's CRTCs only
        /// `RR_Rotate_0`.
        package var rotations: UInt16 = 1
        package var outputs: [UInt]

        /// The rotation in degrees and the reflection that RandR's rotation bits say.
        package var orientation: (degrees: Int, reflection: ScreenDescription.Reflection) {
            RandR.orientation(rotation)
        }
    }

    /// Degrees and reflection from RandR's rotation bits (`RR_Rotate_*`, `RR_Reflect_*`).
    package nonisolated static func orientation(_ bits: UInt16) -> (degrees: Int, reflection: ScreenDescription.Reflection) {
        let b = Int32(bits)
        let degrees = b & RR_Rotate_90 != 0 ? 90 : b & RR_Rotate_180 != 0 ? 180 : b & RR_Rotate_270 != 0 ? 270 : 0
        let x = b & RR_Reflect_X != 0, y = b & RR_Reflect_Y != 0
        return (degrees, x && y ? .xy : x ? .x : y ? .y : .none)
    }

    /// One RandR 1.5 monitor.
    package struct MonitorInfo: Equatable {
        package var nameAtom: UInt
        package var primary: Bool
        package var frame: Rect
        package var physicalSize: Size
        package var outputs: [UInt]
    }

    /// The RandR version, or nil without RandR. `XQueryExtension`, `XRRQueryExtension`, `XRRQueryVersion`.
    package static func version(_ c: XConnection) -> (major: Int32, minor: Int32, eventBase: Int32)? {
        var eventBase: Int32 = 0, errorBase: Int32 = 0, major: Int32 = 0, minor: Int32 = 0, opcode: Int32 = 0
        // Ask the core protocol first: libXrandr keeps a record per display it was asked about, which it
        // never frees when the server lacks the extension.
        guard XQueryExtension(c.display, "RANDR", &opcode, &eventBase, &errorBase) != 0,
              XRRQueryExtension(c.display, &eventBase, &errorBase) != 0,
              XRRQueryVersion(c.display, &major, &minor) != 0 else { return nil }
        return (major, minor, eventBase)
    }

    /// A mode-table entry as a `ScreenMode`: its size, its rate as xrandr computes it, interlaced or not.
    static func screenMode(_ m: xcb_randr_mode_info_t) -> ScreenMode {
        screenMode(id: UInt64(m.id), width: Int(m.width), height: Int(m.height), dotClock: UInt64(m.dot_clock),
                   hTotal: UInt32(m.htotal), vTotal: UInt32(m.vtotal), flags: UInt64(m.mode_flags))
    }

    private static func screenMode(id: UInt64, width: Int, height: Int, dotClock: UInt64, hTotal: UInt32, vTotal: UInt32,
                                   flags: UInt64) -> ScreenMode {
        let interlaced = flags & UInt64(RR_Interlace) != 0
        let hz = ModeTimings.refreshRate(dotClock: dotClock, hTotal: hTotal, vTotal: vTotal,
                                         doubleScan: flags & UInt64(RR_DoubleScan) != 0, interlaced: interlaced)
        return ScreenMode(width: width, height: height, refreshRate: hz, isInterlaced: interlaced, backendID: id)
    }

    /// The brightness a gamma ramp says from the top of its red ramp.
    package nonisolated static func brightness(topOfRamp value: UInt16) -> Double {
        let top = Double(value) / 65535
        // Xvfb starts with an all-zero ramp that dims nothing: a ramp nobody set reads as full brightness.
        if top == 0 { return 1 }
        return (top * 1000).rounded() / 1000
    }

    /// Sets a linear gamma ramp scaled to `value`, as `xrandr --brightness` does. `XRRSetCrtcGamma`
    /// (the ramp's size read over XCB).
    package static func setBrightness(_ c: XConnection, crtc: UInt, _ value: Double) throws {
        let size = RandRBatch.gammaSize(c, crtc: crtc)
        guard size > 1, let g = XRRAllocGamma(size) else {
            throw X11Error.refused(display: c.name, request: "RRSetCrtcGamma (no gamma ramp)", status: Int(size))
        }
        defer { XRRFreeGamma(g) }
        for i in 0..<Int(size) {
            let v = UInt16(min(65535, (Double(i) / Double(size - 1) * 65535 * value).rounded()))
            g.pointee.red[i] = v
            g.pointee.green[i] = v
            g.pointee.blue[i] = v
        }
        try c.trap("RRSetCrtcGamma") { XRRSetCrtcGamma(c.display, RRCrtc(crtc), g) }
    }
}
