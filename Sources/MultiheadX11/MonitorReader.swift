internal import CXlib
import Multihead

/// Reads the X server's monitors into a screen snapshot: RandR 1.5 monitors with the modes of their
/// outputs, or one screen per X screen without RandR 1.5.
@MainActor
struct MonitorReader {
    let connection: XConnection
    let randr15: Bool
    private var atomNames: [UInt: String] = [:]

    init(connection: XConnection, randr15: Bool) {
        self.connection = connection
        self.randr15 = randr15
    }

    /// The snapshot now; never empty (a stand-in the size of the root window when no monitor is active).
    mutating func read() throws -> [ScreenDescription] {
        let c = connection
        let screens: [ScreenDescription] = try c.trap("reading monitors") {
            randr15 ? readMonitors() : Self.xScreens(c)
        }
        // No monitor active: a stand-in the size of the root window, which the model never announces.
        if screens.isEmpty { return [.standIn(size: c.rootSize())] }
        return screens
    }

    private mutating func readMonitors() -> [ScreenDescription] {
        guard let monitors = RandR.monitors(connection) else { return [] }
        let res = RandR.resources(connection) ?? ([:], [:], [:])
        var result: [ScreenDescription] = []
        for m in monitors {
            guard let name = atomName(m.nameAtom) else { continue }
            let outputs = m.outputs.compactMap { res.outputs[$0] }
            // A monitor whose outputs all lost their CRTC is off: not an active monitor.
            if !m.outputs.isEmpty && !outputs.contains(where: { $0.crtc != 0 }) { continue }
            result.append(describe(m, name: name, outputs: outputs, res.modes, res.crtcs))
        }
        return result
    }

    private func describe(_ m: RandR.MonitorInfo, name: String, outputs: [RandR.OutputInfo],
                          _ modeTable: [UInt: RandR.ModeInfo], _ crtcs: [UInt: RandR.CrtcInfo]) -> ScreenDescription {
        guard !outputs.isEmpty else {
            // A virtual monitor: one mode, its own size.
            let own = ScreenMode(size: m.frame.size)
            return ScreenDescription(name: name, frame: m.frame, physicalSize: m.physicalSize, isPrimary: m.primary,
                                     modes: [own], currentMode: own, preferredMode: own)
        }
        var modes: [ScreenMode] = [], seen = Set<UInt>()
        var preferred: ScreenMode?
        for o in outputs {
            for (i, id) in o.modes.enumerated() where seen.insert(id).inserted {
                guard let info = modeTable[id] else { continue }
                modes.append(info.mode)
                if i < o.preferredCount && preferred == nil { preferred = info.mode }
            }
        }
        let crtc = outputs.lazy.compactMap { crtcs[$0.crtc] }.first
        let orientation = crtc?.orientation ?? (0, .none)
        // A CRTC turned by 90° or 270° shows its mode sideways: report the mode the way the frame is.
        let current = crtc.flatMap { modeTable[$0.mode]?.mode }?.rotated(byDegrees: orientation.degrees)
        let gamma = outputs.first { $0.crtc != 0 }.flatMap { RandR.brightness(connection, crtc: $0.crtc) }
        return ScreenDescription(
            name: name, frame: m.frame, physicalSize: m.physicalSize, isPrimary: m.primary,
            outputs: outputs.map(\.name), modes: modes, currentMode: current, preferredMode: preferred,
            brightness: gamma ?? 1, hasHardwareBrightness: gamma != nil,
            rotation: orientation.degrees, reflection: orientation.reflection)
    }

    /// A monitor name atom's text, cached: atoms live as long as the server.
    mutating func atomName(_ atom: UInt) -> String? {
        if let n = atomNames[atom] { return n }
        let n = RandR.atomName(connection, atom)
        atomNames[atom] = n
        return n
    }

    /// Without RandR 1.5: one screen per X screen, named SCREEN-n.
    static func xScreens(_ c: XConnection) -> [ScreenDescription] {
        (0..<mh_screen_count(c.display)).map { s in
            let frame = Rect(x: 0, y: 0, width: Double(mh_display_width(c.display, s)),
                             height: Double(mh_display_height(c.display, s)))
            return ScreenDescription(
                name: "SCREEN-\(s)", frame: frame,
                physicalSize: Size(width: Double(mh_display_width_mm(c.display, s)),
                                   height: Double(mh_display_height_mm(c.display, s))),
                isPrimary: s == mh_default_screen(c.display))
        }
    }
}
