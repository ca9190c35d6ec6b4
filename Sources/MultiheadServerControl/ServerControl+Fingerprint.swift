internal import CXlib
import Multihead
import MultiheadX11

extension ServerControl {
    /// The server's state as the next test would find it (`ServerFingerprint`): windows, root
    /// properties, RandR's monitors, CRTCs, modes, gamma and output properties, focus, pointer, keys,
    /// XKB's locks and the keyboard and pointer mappings, the settings of `xhost` and `xset` and XKB's
    /// controls, the root's background at its far corner. About 17 round trips, more on a server with many
    /// outputs.
    package func fingerprint() throws -> ServerFingerprint {
        let c = connection
        try c.checkAlive()
        let state = try readState()
        let windows = try topLevelWindows().map { UInt($0) }
        // Pipelined through the one RandR reader: three round trips however many outputs and CRTCs.
        let gammas = RandRBatch.gammaRamps(c, crtcs: state.resources.crtcs.entries.map(\.id))
        let outputProperties = RandRBatch.outputProperties(c, outputs: state.outputs.map(\.id))
        return try c.trap("read the server's state") {
            let d = c.display
            let root = CXlib.Window(c.root)
            var crtcs: [UInt: ServerFingerprint.Crtc] = [:]
            for (id, crtc) in state.resources.crtcs.entries {
                crtcs[id] = ServerFingerprint.Crtc(x: crtc.x, y: crtc.y, mode: crtc.mode, rotation: crtc.rotation,
                                                   outputs: crtc.outputs, gamma: gammas[id] ?? [])
            }
            var outputModes: [UInt: [UInt]] = [:]
            for output in state.outputs { outputModes[output.id] = output.modes }
            var focus: CXlib.Window = 0, revert: Int32 = 0
            XGetInputFocus(d, &focus, &revert)
            var rootReturn: CXlib.Window = 0, child: CXlib.Window = 0
            var x: Int32 = 0, y: Int32 = 0, wx: Int32 = 0, wy: Int32 = 0, mask: UInt32 = 0
            XQueryPointer(d, root, &rootReturn, &child, &x, &y, &wx, &wy, &mask)
            var keys = [CChar](repeating: 0, count: 32)
            XQueryKeymap(d, &keys)
            var xkb = XkbStateRec()
            XkbGetState(d, UInt32(XkbUseCoreKbd), &xkb)
            let keymap = Self.keyboardMapping(d)
            let modifiers = Self.modifierMapping(d)
            var buttons = [UInt8](repeating: 0, count: 256)
            let buttonCount = Int(XGetPointerMapping(d, &buttons, Int32(buttons.count)))
            return ServerFingerprint(
                windows: windows,
                rootProperties: Self.properties(d, of: root),
                screenSize: c.rootSize(),
                monitors: state.monitors.map { .init(name: $0.nameAtom, frame: $0.frame, primary: $0.primary, outputs: $0.outputs) },
                crtcs: crtcs,
                primaryOutput: state.primaryOutput,
                modes: Set(state.resources.modes.entries.map(\.id)),
                outputModes: outputModes,
                outputProperties: outputProperties,
                focus: UInt(focus), focusRevert: revert,
                pointerX: x, pointerY: y, pointerMask: mask,
                keysDown: keys.map { UInt8(bitPattern: $0) },
                lockedModifiers: xkb.locked_mods, latchedModifiers: xkb.latched_mods, lockedGroup: xkb.locked_group,
                firstKeycode: keymap.first, keysymsPerKeycode: keymap.perKeycode, keysyms: keymap.keysyms,
                keysPerModifier: modifiers.perModifier, modifierKeycodes: modifiers.keycodes,
                pointerMapping: Array(buttons.prefix(max(0, buttonCount))),
                settings: ServerSettings.read(d), rootCornerPixel: Self.rootCornerPixel(d, root: root, size: c.rootSize()))
        }
    }

    /// The root window's own pixel at its bottom-right corner (0 when it cannot be read). `XGetImage`.
    static func rootCornerPixel(_ d: OpaquePointer, root: CXlib.Window, size: Size) -> UInt {
        guard size.width >= 1, size.height >= 1,
              let image = XGetImage(d, root, Int32(size.width) - 1, Int32(size.height) - 1, 1, 1, mh_all_planes(), ZPixmap) else { return 0 }
        defer { _ = mh_destroy_image(image) }
        return mh_get_pixel(image, 0, 0)
    }

    /// The bytes of a property's value as Xlib hands them over: a format-32 item is a C `long`, which is
    /// also what `XChangeProperty` takes back.
    static func byteCount(items: UInt, format: Int32) -> Int {
        Int(items) * (format == 32 ? MemoryLayout<CLong>.size : Int(format) / 8)
    }

    /// A window's properties by atom. `XListProperties`, `XGetWindowProperty`.
    static func properties(_ d: OpaquePointer, of window: CXlib.Window) -> [UInt: ServerFingerprint.Property] {
        var count: Int32 = 0
        guard let atoms = XListProperties(d, window, &count) else { return [:] }
        defer { XFree(atoms) }
        var out: [UInt: ServerFingerprint.Property] = [:]
        for atom in UnsafeBufferPointer(start: atoms, count: Int(count)) {
            var type: Atom = 0, format: Int32 = 0, items: UInt = 0, after: UInt = 0
            var data: UnsafeMutablePointer<UInt8>?
            guard XGetWindowProperty(d, window, atom, 0, 1 << 24, 0, Atom(AnyPropertyType), &type, &format, &items, &after, &data) == Success
            else { continue }
            defer { if let data { XFree(data) } }
            let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: byteCount(items: items, format: format))) } ?? []
            out[UInt(atom)] = .init(type: UInt(type), format: format, bytes: bytes)
        }
        return out
    }

    /// The keyboard mapping from the first keycode to the last. `XDisplayKeycodes`, `XGetKeyboardMapping`.
    static func keyboardMapping(_ d: OpaquePointer) -> (first: Int32, perKeycode: Int32, keysyms: [UInt]) {
        var low: Int32 = 0, high: Int32 = 0, per: Int32 = 0
        XDisplayKeycodes(d, &low, &high)
        guard high >= low, let syms = XGetKeyboardMapping(d, KeyCode(low), high - low + 1, &per) else { return (low, 0, []) }
        defer { XFree(syms) }
        return (low, per, Array(UnsafeBufferPointer(start: syms, count: Int(high - low + 1) * Int(per))).map { UInt($0) })
    }

    /// The modifier mapping: keycodes per modifier and the 8 × that many keycodes. `XGetModifierMapping`.
    static func modifierMapping(_ d: OpaquePointer) -> (perModifier: Int32, keycodes: [UInt8]) {
        guard let m = XGetModifierMapping(d) else { return (0, []) }
        defer { XFreeModifiermap(m) }
        let per = m.pointee.max_keypermod
        guard let codes = m.pointee.modifiermap else { return (per, []) }
        return (per, Array(UnsafeBufferPointer(start: codes, count: 8 * Int(per))))
    }
}
