internal import CXlib
import Glibc
import Multihead
import MultiheadX11

/// The server-wide settings a client can change with `xhost`, `xset` or XKB and that the next client
/// would find: access control and its host list, the screen saver, keyboard control (click, bell, LEDs,
/// auto-repeat), pointer acceleration, the font path, and XKB's enabled controls and repeat rate. Part of
/// a `ServerFingerprint`: read with it, reset with it.
package struct ServerSettings: Equatable, Sendable {
    /// One entry of the access control list: its family and address (a server-interpreted entry's type
    /// and value, NUL between them).
    package struct Host: Hashable, Sendable {
        var family: Int32
        var address: [UInt8]
    }

    /// Whether access control is on (`xhost -`), and the hosts allowed.
    var accessControl: Bool
    var hosts: Set<Host>
    /// The screen saver's timeout and cycle (seconds), whether it blanks, whether exposures are allowed.
    var screenSaver: [Int32]
    /// Key click and bell percent, bell pitch and duration, the LEDs lit, global auto-repeat, and the
    /// 256 keys' auto-repeat bits.
    var keyboard: [Int]
    var autoRepeats: [UInt8]
    /// Pointer acceleration (numerator, denominator) and threshold.
    var pointer: [Int32]
    /// The font path, element by element.
    var fontPath: [String]
    /// XKB's controls: the enabled ones (StickyKeys, SlowKeys, RepeatKeys…), the repeat delay and
    /// interval, and the parameters of slow, bounce and mouse keys and AccessX.
    var xkbControls: [Int]

    /// The parts that differ, named as a person reads them.
    func differences(from b: ServerSettings) -> [String] {
        var out: [String] = []
        if accessControl != b.accessControl { out.append("access control \(accessControl ? "on" : "off") (xhost)") }
        if hosts != b.hosts { out.append("the access control list (xhost)") }
        if screenSaver != b.screenSaver { out.append("screen saver settings") }
        if keyboard != b.keyboard || autoRepeats != b.autoRepeats { out.append("keyboard control (auto-repeat, bell, click, LEDs)") }
        if pointer != b.pointer { out.append("pointer acceleration") }
        if fontPath != b.fontPath { out.append("font path") }
        if xkbControls != b.xkbControls { out.append("XKB controls (StickyKeys, SlowKeys, repeat rate…)") }
        return out
    }

    /// The XKB controls read and set: every one but the per-key repeat bits (keyboard control has them)
    /// and the groups and internal modifiers, which a keymap sets.
    static let xkbMask = UInt(XkbRepeatKeysMask | XkbSlowKeysMask | XkbBounceKeysMask | XkbStickyKeysMask | XkbMouseKeysMask
                              | XkbMouseKeysAccelMask | XkbAccessXKeysMask | XkbAccessXTimeoutMask | XkbAccessXFeedbackMask
                              | XkbControlsEnabledMask)

    /// XKB's controls as `xkbControls` holds them (empty without XKB). `XkbGetControls`.
    static func readXkbControls(_ d: OpaquePointer) -> [Int] {
        guard let desc = XkbAllocKeyboard() else { return [] }
        defer { XkbFreeKeyboard(desc, 0, 1) }
        guard XkbGetControls(d, UInt(XkbAllControlsMask), desc) == Success, let c = desc.pointee.ctrls?.pointee else { return [] }
        return [Int(c.enabled_ctrls), Int(c.repeat_delay), Int(c.repeat_interval), Int(c.slow_keys_delay), Int(c.debounce_delay),
                Int(c.mk_dflt_btn), Int(c.mk_delay), Int(c.mk_interval), Int(c.mk_time_to_max), Int(c.mk_max_speed), Int(c.mk_curve),
                Int(c.ax_options), Int(c.ax_timeout), Int(c.axt_opts_mask), Int(c.axt_opts_values), Int(c.axt_ctrls_mask),
                Int(c.axt_ctrls_values)]
    }

    /// Sets back what differs from `baseline` (requests only; the caller syncs and reads again).
    func reset(to baseline: ServerSettings, _ d: OpaquePointer) {
        if accessControl != baseline.accessControl {
            if baseline.accessControl { XEnableAccessControl(d) } else { XDisableAccessControl(d) }
        }
        for h in hosts.subtracting(baseline.hosts) { Self.changeHost(d, h, add: false) }
        for h in baseline.hosts.subtracting(hosts) { Self.changeHost(d, h, add: true) }
        if screenSaver != baseline.screenSaver {
            let s = baseline.screenSaver
            XSetScreenSaver(d, s[0], s[1], s[2], s[3])
        }
        if keyboard != baseline.keyboard || autoRepeats != baseline.autoRepeats { resetKeyboard(to: baseline, d) }
        if pointer != baseline.pointer {
            XChangePointerControl(d, 1, 1, baseline.pointer[0], baseline.pointer[1], baseline.pointer[2])
        }
        if fontPath != baseline.fontPath {
            var strings = baseline.fontPath.map { strdup($0) }
            defer { strings.forEach { free($0) } }
            XSetFontPath(d, &strings, Int32(strings.count))
        }
        if xkbControls != baseline.xkbControls, baseline.xkbControls.count == 17 { Self.setXkbControls(baseline.xkbControls, d) }
    }

    private func resetKeyboard(to b: ServerSettings, _ d: OpaquePointer) {
        var v = XKeyboardControl()
        v.key_click_percent = Int32(b.keyboard[0])
        v.bell_percent = Int32(b.keyboard[1])
        v.bell_pitch = Int32(b.keyboard[2])
        v.bell_duration = Int32(b.keyboard[3])
        v.auto_repeat_mode = Int32(b.keyboard[5] != 0 ? AutoRepeatModeOn : AutoRepeatModeOff)
        XChangeKeyboardControl(d, UInt(KBKeyClickPercent | KBBellPercent | KBBellPitch | KBBellDuration | KBAutoRepeatMode), &v)
        for led in 1...32 where (keyboard[4] ^ b.keyboard[4]) & (1 << (led - 1)) != 0 {
            var l = XKeyboardControl()
            l.led = Int32(led)
            l.led_mode = Int32(b.keyboard[4] & (1 << (led - 1)) != 0 ? LedModeOn : LedModeOff)
            XChangeKeyboardControl(d, UInt(KBLed | KBLedMode), &l)
        }
        for key in 8..<256 {
            let bit = UInt8(1 << (key % 8))
            guard (autoRepeats[key / 8] ^ b.autoRepeats[key / 8]) & bit != 0 else { continue }
            var r = XKeyboardControl()
            r.key = Int32(key)
            r.auto_repeat_mode = Int32(b.autoRepeats[key / 8] & bit != 0 ? AutoRepeatModeOn : AutoRepeatModeOff)
            XChangeKeyboardControl(d, UInt(KBKey | KBAutoRepeatMode), &r)
        }
    }

    /// Adds or removes one entry of the access control list. `XAddHost`, `XRemoveHost`.
    private static func changeHost(_ d: OpaquePointer, _ h: Host, add: Bool) {
        var bytes = h.address
        bytes.withUnsafeMutableBytes { raw in
            var host = XHostAddress(family: h.family, length: Int32(raw.count), address: raw.baseAddress?.assumingMemoryBound(to: CChar.self))
            var si = XServerInterpretedAddress()
            if h.family == FamilyServerInterpreted, let split = h.address.firstIndex(of: 0), let base = raw.baseAddress {
                si.type = base.assumingMemoryBound(to: CChar.self)
                si.typelength = Int32(split)
                si.value = (base + split + 1).assumingMemoryBound(to: CChar.self)
                si.valuelength = Int32(raw.count - split - 1)
                withUnsafeMutablePointer(to: &si) { p in
                    host.address = UnsafeMutableRawPointer(p).assumingMemoryBound(to: CChar.self)
                    host.length = Int32(MemoryLayout<XServerInterpretedAddress>.size)
                    if add { XAddHost(d, &host) } else { XRemoveHost(d, &host) }
                }
                return
            }
            if add { XAddHost(d, &host) } else { XRemoveHost(d, &host) }
        }
    }

    /// Writes XKB's controls back from `xkbControls`' values. `XkbSetControls`.
    private static func setXkbControls(_ v: [Int], _ d: OpaquePointer) {
        guard let desc = XkbAllocKeyboard() else { return }
        defer { XkbFreeKeyboard(desc, 0, 1) }
        guard XkbGetControls(d, UInt(XkbAllControlsMask), desc) == Success, let c = desc.pointee.ctrls else { return }
        c.pointee.enabled_ctrls = UInt32(v[0])
        c.pointee.repeat_delay = UInt16(v[1])
        c.pointee.repeat_interval = UInt16(v[2])
        c.pointee.slow_keys_delay = UInt16(v[3])
        c.pointee.debounce_delay = UInt16(v[4])
        c.pointee.mk_dflt_btn = UInt8(v[5])
        c.pointee.mk_delay = UInt16(v[6])
        c.pointee.mk_interval = UInt16(v[7])
        c.pointee.mk_time_to_max = UInt16(v[8])
        c.pointee.mk_max_speed = UInt16(v[9])
        c.pointee.mk_curve = Int16(v[10])
        c.pointee.ax_options = UInt16(v[11])
        c.pointee.ax_timeout = UInt16(v[12])
        c.pointee.axt_opts_mask = UInt16(v[13])
        c.pointee.axt_opts_values = UInt16(v[14])
        c.pointee.axt_ctrls_mask = UInt32(v[15])
        c.pointee.axt_ctrls_values = UInt32(v[16])
        XkbSetControls(d, xkbMask, desc)
    }
}
