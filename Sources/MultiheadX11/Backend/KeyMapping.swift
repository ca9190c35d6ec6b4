import Multihead

/// X keysyms and HID usages, both ways: the X11 backend names keys with `KeyboardHIDUsage` (from the key's
/// unshifted keysym), and the kit types a `KeyboardHIDUsage` through XTest (by its keysym). Pure
/// functions over one table.
package enum KeyMapping {
    /// (keysym, usage) for every key that is not a letter or a digit (those are computed).
    private static let table: [(UInt32, KeyboardHIDUsage)] = [
        (0xFF0D, .keyboardReturnOrEnter), (0xFF8D, .keyboardReturnOrEnter), (0xFF1B, .keyboardEscape),
        (0xFF08, .keyboardDeleteOrBackspace), (0xFF09, .keyboardTab), (0x0020, .keyboardSpacebar),
        (0x002D, .keyboardHyphen), (0x003D, .keyboardEqualSign), (0x005B, .keyboardOpenBracket),
        (0x005D, .keyboardCloseBracket), (0x005C, .keyboardBackslash), (0x003B, .keyboardSemicolon),
        (0x0027, .keyboardQuote), (0x0060, .keyboardGraveAccentAndTilde), (0x002C, .keyboardComma),
        (0x002E, .keyboardPeriod), (0x002F, .keyboardSlash), (0xFFE5, .keyboardCapsLock),
        (0xFF61, .keyboardPrintScreen), (0xFF14, .keyboardScrollLock), (0xFF13, .keyboardPause),
        (0xFF63, .keyboardInsert), (0xFF50, .keyboardHome), (0xFF55, .keyboardPageUp), (0xFFFF, .keyboardDeleteForward),
        (0xFF57, .keyboardEnd), (0xFF56, .keyboardPageDown), (0xFF53, .keyboardRightArrow), (0xFF51, .keyboardLeftArrow),
        (0xFF54, .keyboardDownArrow), (0xFF52, .keyboardUpArrow), (0xFFE3, .keyboardLeftControl),
        (0xFFE1, .keyboardLeftShift), (0xFFE9, .keyboardLeftAlt), (0xFFEB, .keyboardLeftGUI),
        (0xFFE4, .keyboardRightControl), (0xFFE2, .keyboardRightShift), (0xFFEA, .keyboardRightAlt),
        (0xFFEC, .keyboardRightGUI), (0xFE03, .keyboardRightAlt),
    ]

    /// The usage of a keysym (the unshifted one of the key: "a", not "A"); `.keyboardErrorUndefined` when
    /// the key has none.
    static func usage(forKeysym sym: UInt32) -> KeyboardHIDUsage {
        switch sym {
        case 0x61...0x7A: return KeyboardHIDUsage(rawValue: 0x04 + Int(sym - 0x61))   // a–z
        case 0x41...0x5A: return KeyboardHIDUsage(rawValue: 0x04 + Int(sym - 0x41))   // A–Z
        case 0x31...0x39: return KeyboardHIDUsage(rawValue: 0x1E + Int(sym - 0x31))   // 1–9
        case 0x30: return .keyboard0
        case 0xFFBE...0xFFC9: return KeyboardHIDUsage(rawValue: 0x3A + Int(sym - 0xFFBE))   // F1–F12
        default: return table.first { $0.0 == sym }?.1 ?? .keyboardErrorUndefined
        }
    }

    /// The keysym that types a usage (lower-case letters, the left-hand modifiers), nil for a usage with
    /// no key here.
    package static func keysym(for usage: KeyboardHIDUsage) -> UInt32? {
        let u = usage.rawValue
        switch u {
        case 0x04...0x1D: return 0x61 + UInt32(u - 0x04)
        case 0x1E...0x26: return 0x31 + UInt32(u - 0x1E)
        case 0x27: return 0x30
        case 0x3A...0x45: return 0xFFBE + UInt32(u - 0x3A)
        default: return table.first { $0.1 == usage }?.0
        }
    }

    /// The modifiers an X key event's state says (`ShiftMask`, `LockMask`, `ControlMask`, `Mod1Mask`,
    /// `Mod4Mask`).
    static func modifiers(state: UInt32) -> KeyModifierFlags {
        var flags: KeyModifierFlags = []
        if state & 1 != 0 { flags.insert(.shift) }
        if state & 2 != 0 { flags.insert(.alphaShift) }
        if state & 4 != 0 { flags.insert(.control) }
        if state & 8 != 0 { flags.insert(.alternate) }
        if state & 64 != 0 { flags.insert(.command) }
        return flags
    }
}
