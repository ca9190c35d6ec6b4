internal import CXlib
import Multihead
import MultiheadX11

extension ServerControl {
    /// The server's state as the next test would find it (`ServerFingerprint`): windows, root
    /// properties, RandR's monitors, CRTCs, modes, gamma and output properties, focus, pointer, keys,
    /// XKB's locks and the keyboard and pointer mappings, the settings of `xhost` and `xset` and XKB's
    /// controls, the root's background at its far corner. Nine round trips however many outputs and root
    /// properties: RandR's pipelined reads (five), the core protocol's (`CoreStateRead`: two), XKB's state and
    /// controls (one each, through Xlib).
    package func fingerprint() throws -> ServerFingerprint {
        let c = connection
        try c.checkAlive()
        let state = try readState()
        // Pipelined through the one RandR reader: three round trips however many outputs and CRTCs.
        let gammas = RandRBatch.gammaRamps(c, crtcs: state.resources.crtcs.entries.map(\.id))
        let outputProperties = RandRBatch.outputProperties(c, outputs: state.outputs.map(\.id))
        let core = c.bounded { c.xcbConnection.flatMap { CoreStateRead.read($0, root: c.root) } }
        try c.checkAlive()
        guard let core else { throw X11Error.refused(display: c.name, request: "read the server's state", status: -1) }
        return try c.trap("read the server's state") {
            let d = c.display
            var crtcs: [UInt: ServerFingerprint.Crtc] = [:]
            for (id, crtc) in state.resources.crtcs.entries {
                crtcs[id] = ServerFingerprint.Crtc(x: crtc.x, y: crtc.y, mode: crtc.mode, rotation: crtc.rotation,
                                                   outputs: crtc.outputs, gamma: gammas[id] ?? [])
            }
            var outputModes: [UInt: [UInt]] = [:]
            for output in state.outputs { outputModes[output.id] = output.modes }
            var xkb = XkbStateRec()
            XkbGetState(d, UInt32(XkbUseCoreKbd), &xkb)
            let settings = ServerSettings(
                accessControl: core.accessControl, hosts: core.hosts, screenSaver: core.screenSaver, keyboard: core.keyboard,
                autoRepeats: core.autoRepeats, pointer: core.pointer, fontPath: core.fontPath,
                xkbControls: ServerSettings.readXkbControls(d))
            return ServerFingerprint(
                windows: core.windows,
                rootProperties: core.rootProperties,
                screenSize: core.screenSize,
                monitors: state.monitors.map { .init(name: $0.nameAtom, frame: $0.frame, primary: $0.primary, outputs: $0.outputs) },
                crtcs: crtcs,
                primaryOutput: state.primaryOutput,
                modes: Set(state.resources.modes.entries.map(\.id)),
                outputModes: outputModes,
                outputProperties: outputProperties,
                focus: core.focus, focusRevert: core.focusRevert,
                pointerX: core.pointerX, pointerY: core.pointerY, pointerMask: core.pointerMask,
                keysDown: core.keysDown,
                lockedModifiers: xkb.locked_mods, latchedModifiers: xkb.latched_mods, lockedGroup: xkb.locked_group,
                firstKeycode: core.firstKeycode, keysymsPerKeycode: core.keysymsPerKeycode, keysyms: core.keysyms,
                keysPerModifier: core.keysPerModifier, modifierKeycodes: core.modifierKeycodes,
                pointerMapping: core.pointerMapping,
                settings: settings, rootCornerPixel: core.rootCornerPixel)
        }
    }
}
