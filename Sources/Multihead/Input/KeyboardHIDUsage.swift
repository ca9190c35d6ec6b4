/// A key by its position on the keyboard (UIKeyboardHIDUsage): the USB HID usage on the keyboard page,
/// the same whatever the layout or the modifiers. `Key.keyCode` carries it; the X11 backend maps X keysyms
/// to it. A value without a name here is still a valid code.
public struct KeyboardHIDUsage: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The HID usage ID (keyboard page 0x07).
    public let rawValue: Int

    /// A usage by its ID.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// No key: the backend had no code for it.
    public static let keyboardErrorUndefined = Self(rawValue: 0x03)

    // Letters a–z are 0x04…0x1D.
    public static let keyboardA = Self(rawValue: 0x04), keyboardB = Self(rawValue: 0x05), keyboardC = Self(rawValue: 0x06)
    public static let keyboardD = Self(rawValue: 0x07), keyboardE = Self(rawValue: 0x08), keyboardF = Self(rawValue: 0x09)
    public static let keyboardG = Self(rawValue: 0x0A), keyboardH = Self(rawValue: 0x0B), keyboardI = Self(rawValue: 0x0C)
    public static let keyboardJ = Self(rawValue: 0x0D), keyboardK = Self(rawValue: 0x0E), keyboardL = Self(rawValue: 0x0F)
    public static let keyboardM = Self(rawValue: 0x10), keyboardN = Self(rawValue: 0x11), keyboardO = Self(rawValue: 0x12)
    public static let keyboardP = Self(rawValue: 0x13), keyboardQ = Self(rawValue: 0x14), keyboardR = Self(rawValue: 0x15)
    public static let keyboardS = Self(rawValue: 0x16), keyboardT = Self(rawValue: 0x17), keyboardU = Self(rawValue: 0x18)
    public static let keyboardV = Self(rawValue: 0x19), keyboardW = Self(rawValue: 0x1A), keyboardX = Self(rawValue: 0x1B)
    public static let keyboardY = Self(rawValue: 0x1C), keyboardZ = Self(rawValue: 0x1D)
    // Digits 1…9 are 0x1E…0x26, then 0.
    public static let keyboard1 = Self(rawValue: 0x1E), keyboard2 = Self(rawValue: 0x1F), keyboard3 = Self(rawValue: 0x20)
    public static let keyboard4 = Self(rawValue: 0x21), keyboard5 = Self(rawValue: 0x22), keyboard6 = Self(rawValue: 0x23)
    public static let keyboard7 = Self(rawValue: 0x24), keyboard8 = Self(rawValue: 0x25), keyboard9 = Self(rawValue: 0x26)
    public static let keyboard0 = Self(rawValue: 0x27)
    public static let keyboardReturnOrEnter = Self(rawValue: 0x28)
    public static let keyboardEscape = Self(rawValue: 0x29)
    public static let keyboardDeleteOrBackspace = Self(rawValue: 0x2A)
    public static let keyboardTab = Self(rawValue: 0x2B)
    public static let keyboardSpacebar = Self(rawValue: 0x2C)
    public static let keyboardHyphen = Self(rawValue: 0x2D)
    public static let keyboardEqualSign = Self(rawValue: 0x2E)
    public static let keyboardOpenBracket = Self(rawValue: 0x2F)
    public static let keyboardCloseBracket = Self(rawValue: 0x30)
    public static let keyboardBackslash = Self(rawValue: 0x31)
    public static let keyboardSemicolon = Self(rawValue: 0x33)
    public static let keyboardQuote = Self(rawValue: 0x34)
    public static let keyboardGraveAccentAndTilde = Self(rawValue: 0x35)
    public static let keyboardComma = Self(rawValue: 0x36)
    public static let keyboardPeriod = Self(rawValue: 0x37)
    public static let keyboardSlash = Self(rawValue: 0x38)
    public static let keyboardCapsLock = Self(rawValue: 0x39)
    // F1…F12 are 0x3A…0x45.
    public static let keyboardF1 = Self(rawValue: 0x3A), keyboardF2 = Self(rawValue: 0x3B), keyboardF3 = Self(rawValue: 0x3C)
    public static let keyboardF4 = Self(rawValue: 0x3D), keyboardF5 = Self(rawValue: 0x3E), keyboardF6 = Self(rawValue: 0x3F)
    public static let keyboardF7 = Self(rawValue: 0x40), keyboardF8 = Self(rawValue: 0x41), keyboardF9 = Self(rawValue: 0x42)
    public static let keyboardF10 = Self(rawValue: 0x43), keyboardF11 = Self(rawValue: 0x44), keyboardF12 = Self(rawValue: 0x45)
    public static let keyboardPrintScreen = Self(rawValue: 0x46)
    public static let keyboardScrollLock = Self(rawValue: 0x47)
    public static let keyboardPause = Self(rawValue: 0x48)
    public static let keyboardInsert = Self(rawValue: 0x49)
    public static let keyboardHome = Self(rawValue: 0x4A)
    public static let keyboardPageUp = Self(rawValue: 0x4B)
    public static let keyboardDeleteForward = Self(rawValue: 0x4C)
    public static let keyboardEnd = Self(rawValue: 0x4D)
    public static let keyboardPageDown = Self(rawValue: 0x4E)
    public static let keyboardRightArrow = Self(rawValue: 0x4F)
    public static let keyboardLeftArrow = Self(rawValue: 0x50)
    public static let keyboardDownArrow = Self(rawValue: 0x51)
    public static let keyboardUpArrow = Self(rawValue: 0x52)
    public static let keyboardLeftControl = Self(rawValue: 0xE0)
    public static let keyboardLeftShift = Self(rawValue: 0xE1)
    public static let keyboardLeftAlt = Self(rawValue: 0xE2)
    public static let keyboardLeftGUI = Self(rawValue: 0xE3)
    public static let keyboardRightControl = Self(rawValue: 0xE4)
    public static let keyboardRightShift = Self(rawValue: 0xE5)
    public static let keyboardRightAlt = Self(rawValue: 0xE6)
    public static let keyboardRightGUI = Self(rawValue: 0xE7)

    /// The usage of a letter a–z (either case) or a digit, if it is one.
    public static func character(_ c: Character) -> KeyboardHIDUsage? {
        guard let a = c.lowercased().unicodeScalars.first?.value, c.unicodeScalars.count == 1 else { return nil }
        switch a {
        case 0x61...0x7A: return Self(rawValue: 0x04 + Int(a - 0x61))
        case 0x31...0x39: return Self(rawValue: 0x1E + Int(a - 0x31))
        case 0x30: return .keyboard0
        default: return nil
        }
    }

    /// "0x4F".
    public var description: String { "0x" + String(rawValue, radix: 16, uppercase: true) }
}

/// The modifier keys held with a key (UIKeyModifierFlags), with UIKit's values.
public struct KeyModifierFlags: OptionSet, Hashable, Sendable {
    /// The flags as bits.
    public let rawValue: Int
    /// Flags from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Caps Lock is on.
    public static let alphaShift = Self(rawValue: 1 << 16)
    /// Shift is held.
    public static let shift = Self(rawValue: 1 << 17)
    /// Control is held.
    public static let control = Self(rawValue: 1 << 18)
    /// Alt (Option) is held.
    public static let alternate = Self(rawValue: 1 << 19)
    /// The command key: on X11, Super (the Windows key, Mod4).
    public static let command = Self(rawValue: 1 << 20)
    /// The key is on the numeric keypad.
    public static let numericPad = Self(rawValue: 1 << 21)
}
