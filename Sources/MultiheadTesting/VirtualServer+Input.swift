import Multihead
import MultiheadServerControl
import MultiheadX11

extension VirtualServer {
    /// A screen's pixels as the server shows them.
    /// On the wayland kind, the compositor's output, once every X window's drawing so far has reached it.
    public func screenshot(of screenName: String) throws -> Bitmap {
        try implementation.screenshot(of: screenName, on: self)
    }
    /// One pixel of a screen as 0xRRGGBB, at a point in the screen's own pixels, read alone (a
    /// `screenshot(of:)` reads the whole screen): `server.pixel(x: 960, y: 540, on: "TV") == 0xFFFFFF`.
    public func pixel(x: Int, y: Int, on screenName: String) throws -> UInt32 {
        try implementation.pixel(x: x, y: y, on: screenName, of: self)
    }
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
