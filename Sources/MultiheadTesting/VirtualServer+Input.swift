import Multihead
import MultiheadX11

extension VirtualServer {
    /// A screen's pixels as the server shows them.
    public func screenshot(of screenName: String) throws -> Bitmap { try Self.kitErrors { try controlConnection().screenshot(of: screenName) } }
    /// Clicks at a desktop point (XTest).
    public func tap(at p: Point) throws { try controlConnection().tap(at: p) }
    /// Drags along a path (XTest).
    public func drag(from start: Point, through path: [Point]) throws { try controlConnection().drag(from: start, through: path) }
    /// Presses a key by its position, with modifiers held (XTest): `press(.keyboardRightArrow)`.
    public func press(_ key: KeyboardHIDUsage, modifiers: KeyModifierFlags = []) throws {
        try controlConnection().press(key, modifiers: modifiers)
    }
    /// Types text (XTest).
    public func type(_ text: String) throws { try controlConnection().type(text) }
}
