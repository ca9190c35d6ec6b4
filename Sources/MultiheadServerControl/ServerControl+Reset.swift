internal import CXlib
import Multihead
import MultiheadX11

extension ServerControl {
    /// Brings the server back to `baseline`, the state it had when it was fresh, and returns what still
    /// differs (empty: the server is as fresh as it was). In order: the clients that own windows the
    /// baseline lacks are closed (`XKillClient`, which also frees what a client kept with
    /// `RetainPermanent`); root properties deleted or written back; RandR: monitors the baseline lacks
    /// deleted, CRTCs and the screen size set back, the primary, modes made since deleted, gamma and output
    /// properties restored; then keys and buttons released, XKB's locks and latches undone, the pointer
    /// home, focus and mappings as they were. Each change is made only where the state read first differs;
    /// one read afterwards checks the result. The keymap cannot always be set back (XKB rebuilds it from
    /// the core map in its own way): the caller then replaces the server.
    package func reset(to baseline: ServerFingerprint) throws -> [String] {
        let c = connection
        let d = c.display
        let root = CXlib.Window(c.root)
        // What no request reads back, set to the server's default every time (three requests, no reply):
        // the root's background and cursor (None on the root restores the defaults; before any window goes,
        // so that what is exposed is painted with the default), and a screen saver left active.
        XSetWindowBackgroundPixmap(d, root, Pixmap(None))
        XUndefineCursor(d, root)
        XForceScreenSaver(d, ScreenSaverReset)
        let now = try fingerprint()
        if now == baseline { return [] }
        // Errors are expected here (a client already gone by its second window): what counts is the
        // state read afterwards.
        _ = try? c.trap("KillClient") {
            for w in now.windows where !baseline.windows.contains(w) { XKillClient(d, XID(w)) }
            XKillClient(d, XID(AllTemporary))
        }
        _ = try? c.trap("restore root properties") {
            for atom in now.rootProperties.keys where baseline.rootProperties[atom] == nil { XDeleteProperty(d, root, Atom(atom)) }
            for (atom, p) in baseline.rootProperties where now.rootProperties[atom] != p {
                Self.write(p) { XChangeProperty(d, root, Atom(atom), Atom(p.type), p.format, PropModeReplace, $0, $1) }
            }
        }
        _ = try? c.trap("restore the server's settings") {
            now.settings.reset(to: baseline.settings, d)
            // A root painted over: painted again with the default background.
            if now.rootCornerPixel != baseline.rootCornerPixel { XClearWindow(d, root) }
        }
        // RandR before input: a smaller screen moves the pointer, which input then puts back.
        let randrChanged = now.randrDiffers(from: baseline)
        if randrChanged { try resetRandR(now, to: baseline) }
        _ = try? c.trap("restore input") { resetInput(now, to: baseline, pointerMoved: randrChanged) }
        return try fingerprint().differences(from: baseline)
    }

    /// Releases what is held, undoes locks and latches, puts the pointer, focus and mappings back.
    private func resetInput(_ now: ServerFingerprint, to baseline: ServerFingerprint, pointerMoved: Bool) {
        let d = connection.display
        for (byte, bits) in now.keysDown.enumerated() where bits != 0 {
            for bit in 0..<8 where bits & (1 << bit) != 0 && baseline.keysDown[byte] & (1 << bit) == 0 {
                XTestFakeKeyEvent(d, UInt32(byte * 8 + bit), 0, 0)
            }
        }
        for button in 1...5 where now.pointerMask & (UInt32(1) << (7 + button)) != 0 { XTestFakeButtonEvent(d, UInt32(button), 0, 0) }
        let core = UInt32(XkbUseCoreKbd)
        if now.lockedModifiers != baseline.lockedModifiers { XkbLockModifiers(d, core, 0xFF, UInt32(baseline.lockedModifiers)) }
        if now.latchedModifiers != baseline.latchedModifiers { XkbLatchModifiers(d, core, 0xFF, UInt32(baseline.latchedModifiers)) }
        if now.lockedGroup != baseline.lockedGroup { XkbLockGroup(d, core, UInt32(baseline.lockedGroup)) }
        if pointerMoved || now.pointerX != baseline.pointerX || now.pointerY != baseline.pointerY {
            XTestFakeMotionEvent(d, -1, baseline.pointerX, baseline.pointerY, 0)
        }
        if now.focus != baseline.focus || now.focusRevert != baseline.focusRevert {
            XSetInputFocus(d, CXlib.Window(baseline.focus), baseline.focusRevert, Time(CurrentTime))
        }
        if now.keysyms != baseline.keysyms, baseline.keysymsPerKeycode > 0 {
            var syms = baseline.keysyms.map { KeySym($0) }
            XChangeKeyboardMapping(d, baseline.firstKeycode, baseline.keysymsPerKeycode, &syms,
                                   Int32(syms.count) / baseline.keysymsPerKeycode)
        }
        if now.modifierKeycodes != baseline.modifierKeycodes || now.keysPerModifier != baseline.keysPerModifier,
           let map = XNewModifiermap(baseline.keysPerModifier) {
            defer { XFreeModifiermap(map) }
            for (i, code) in baseline.modifierKeycodes.enumerated() { map.pointee.modifiermap[i] = code }
            XSetModifierMapping(d, map)
        }
        if now.pointerMapping != baseline.pointerMapping {
            var buttons = baseline.pointerMapping
            XSetPointerMapping(d, &buttons, Int32(buttons.count))
        }
    }

    /// Monitors, CRTCs, the screen size, the primary, modes, gamma and output properties as they were.
    private func resetRandR(_ now: ServerFingerprint, to baseline: ServerFingerprint) throws {
        let c = connection
        let d = c.display
        let root = CXlib.Window(c.root)
        _ = try? c.trap("RRDeleteMonitor") {
            // An output's automatic monitor cannot be deleted: it comes back with its CRTC below.
            for m in now.monitors where !baseline.monitors.contains(m) { XRRDeleteMonitor(d, root, Atom(m.name)) }
        }
        let changed = now.crtcs.keys.filter { now.crtcs[$0]?.configuration != baseline.crtcs[$0]?.configuration }
        if !changed.isEmpty || now.screenSize != baseline.screenSize {
            try c.grabbed {
                var state = try readState()
                for id in changed where state.crtc(id)?.mode != 0 {
                    try OutputConfigurator(c).setCrtc(id, state, x: 0, y: 0, mode: 0, rotation: UInt16(RR_Rotate_0), outputs: [],
                                                      request: "RRSetCrtcConfig off")
                }
                if now.screenSize != baseline.screenSize {
                    let s = baseline.screenSize
                    try c.trap("RRSetScreenSize") {
                        XRRSetScreenSize(d, root, Int32(s.width), Int32(s.height), Int32((s.width * 25.4 / 96).rounded()),
                                         Int32((s.height * 25.4 / 96).rounded()))
                    }
                }
                state = try readState()
                for id in changed {
                    guard let b = baseline.crtcs[id], b.mode != 0 else { continue }
                    try OutputConfigurator(c).setCrtc(id, state, x: b.x, y: b.y, mode: b.mode, rotation: b.rotation, outputs: b.outputs,
                                                      request: "RRSetCrtcConfig back")
                }
            }
        }
        // Monitors deleted with no CRTC set: the configuration serial moves as after any change.
        if changed.isEmpty, now.monitors.contains(where: { !baseline.monitors.contains($0) }) { try stampConfiguration() }
        _ = try? c.trap("restore the primary, modes, gamma and output properties") {
            if now.primaryOutput != baseline.primaryOutput { XRRSetOutputPrimary(d, root, RROutput(baseline.primaryOutput)) }
            for (output, modes) in now.outputModes {
                let kept = baseline.outputModes[output] ?? []
                for mode in modes where !kept.contains(mode) { XRRDeleteOutputMode(d, RROutput(output), RRMode(mode)) }
            }
            for mode in now.modes.subtracting(baseline.modes) { XRRDestroyMode(d, RRMode(mode)) }
            for (id, crtc) in baseline.crtcs where now.crtcs[id]?.gamma != crtc.gamma && !crtc.gamma.isEmpty {
                Self.setGamma(d, crtc: id, crtc.gamma)
            }
            for (output, properties) in now.outputProperties {
                let kept = baseline.outputProperties[output] ?? [:]
                for atom in properties.keys where kept[atom] == nil { XRRDeleteOutputProperty(d, RROutput(output), Atom(atom)) }
                for (atom, p) in kept where properties[atom] != p {
                    Self.write(p) { XRRChangeOutputProperty(d, RROutput(output), Atom(atom), Atom(p.type), p.format, PropModeReplace, $0, $1) }
                }
            }
        }
        // A cable's properties (Multihead's driver) change what a probe finds: probe before the check.
        if now.outputProperties != baseline.outputProperties { probe() }
    }

    /// Calls `body` with a property's value and its count of items, in the layout Xlib takes.
    private static func write(_ p: ServerFingerprint.Property, _ body: (UnsafePointer<UInt8>?, Int32) -> Void) {
        let itemSize = p.format == 32 ? MemoryLayout<CLong>.size : max(1, Int(p.format) / 8)
        p.bytes.withUnsafeBufferPointer { body($0.baseAddress, Int32(p.bytes.count / itemSize)) }
    }

    /// Sets a CRTC's ramps from red, green and blue one after the other. `XRRSetCrtcGamma`.
    private static func setGamma(_ d: OpaquePointer, crtc: UInt, _ ramps: [UInt16]) {
        let n = ramps.count / 3
        guard n > 0, let g = XRRAllocGamma(Int32(n)) else { return }
        defer { XRRFreeGamma(g) }
        for i in 0..<n {
            g.pointee.red[i] = ramps[i]
            g.pointee.green[i] = ramps[n + i]
            g.pointee.blue[i] = ramps[2 * n + i]
        }
        XRRSetCrtcGamma(d, RRCrtc(crtc), g)
    }

    /// A new authorization (SECURITY extension) for the clients of one test: a trusted
    /// MIT-MAGIC-COOKIE-1 that never expires and belongs to this connection. Revoking it closes every
    /// client that connected with it. Returns its id and cookie. `XSecurityGenerateAuthorization`.
    package func generateAuthorization() throws -> (id: UInt, cookie: [UInt8]) {
        let c = connection
        try c.checkAlive()
        var major: Int32 = 0, minor: Int32 = 0
        guard c.bounded({ XSecurityQueryExtension(c.display, &major, &minor) }) != 0 else {
            throw X11Error.refused(display: c.name, request: "SecurityQueryVersion (no SECURITY extension)", status: 0)
        }
        guard let request = XSecurityAllocXauth() else { throw X11Error.refused(display: c.name, request: "XSecurityAllocXauth", status: 0) }
        defer { XSecurityFreeXauth(request) }
        let name = Array("MIT-MAGIC-COOKIE-1".utf8CString)
        var id: XSecurityAuthorization = 0
        var attributes = XSecurityAuthorizationAttributes(timeout: 0, trust_level: UInt32(XSecurityClientTrusted), group: 0, event_mask: 0)
        let granted = try name.withUnsafeBufferPointer { n -> UnsafeMutablePointer<Xauth>? in
            request.pointee.name = UnsafeMutablePointer(mutating: n.baseAddress)
            request.pointee.name_length = UInt16(n.count - 1)
            defer { request.pointee.name = nil }
            return try c.trap("SecurityGenerateAuthorization") {
                XSecurityGenerateAuthorization(c.display, request, UInt(XSecurityTimeout | XSecurityTrustLevel), &attributes, &id)
            }
        }
        guard let granted else { throw X11Error.refused(display: c.name, request: "SecurityGenerateAuthorization", status: 0) }
        defer { XSecurityFreeXauth(granted) }
        let cookie = (0..<Int(granted.pointee.data_length)).map { UInt8(bitPattern: granted.pointee.data[$0]) }
        return (UInt(id), cookie)
    }

    /// Revokes an authorization `generateAuthorization` made: the server closes every client that
    /// connected with it. `XSecurityRevokeAuthorization`.
    package func revokeAuthorization(_ id: UInt) throws {
        let c = connection
        try c.trap("SecurityRevokeAuthorization") { _ = XSecurityRevokeAuthorization(c.display, XSecurityAuthorization(id)) }
    }
}
