/// An input event: a pointer press, move or release (our touches), or a key going down or up.
public struct Event: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable {
        /// A pointer button went down: a touch begins.
        case pointerDown
        /// The pointer moved: a touch that began moves.
        case pointerMoved
        /// A pointer button went up: the touch ends.
        case pointerUp
        /// A key went down.
        case keyDown
        /// A key went up.
        case keyUp
    }

    /// What happened.
    public var kind: Kind
    /// For pointer events: where, in desktop (root window) coordinates. A backend that knows only the
    /// pixel (X11) gives the pixel's centre, x + ½: the view that painted the pixel is the one hit.
    public var location: Point?
    /// For pointer events: the screen the pointer is on; `nil` means any screen containing `location`.
    public var screenName: String?
    /// Which pointer (button or finger), so that several touches can be told apart.
    public var pointerID: Int
    /// For key events: the key.
    public var key: Key?
    /// Seconds since an arbitrary point, from the backend's clock.
    public var timestamp: Double

    /// A pointer event at a desktop location.
    public static func pointer(_ kind: Kind, at location: Point, screenName: String? = nil, pointerID: Int = 1,
                               timestamp: Double = 0) -> Event {
        Event(kind: kind, location: location, screenName: screenName, pointerID: pointerID, key: nil, timestamp: timestamp)
    }

    /// A key event.
    public static func key(_ kind: Kind, _ key: Key, timestamp: Double = 0) -> Event {
        Event(kind: kind, location: nil, screenName: nil, pointerID: 0, key: key, timestamp: timestamp)
    }
}

/// A key on the keyboard (UIKey): where it is (`keyCode`), what it types, and the modifiers held.
public struct Key: Hashable, Sendable {
    /// The key's position on the keyboard, whatever the layout: `.keyboardRightArrow`, `.keyboardA`.
    public var keyCode: KeyboardHIDUsage
    /// The text the key types with the modifiers held ("A" with Shift, "\u{1b}" for Escape), empty for
    /// keys that type nothing.
    public var characters: String
    /// The text the key types without modifiers ("a" for Shift+A).
    public var charactersIgnoringModifiers: String
    /// The modifier keys held.
    public var modifierFlags: KeyModifierFlags
    /// The key's name as the display system calls it ("a", "Escape", "Right" on X11): for logs.
    public var name: String

    /// Makes a key.
    public init(keyCode: KeyboardHIDUsage, characters: String = "", charactersIgnoringModifiers: String? = nil,
                modifierFlags: KeyModifierFlags = [], name: String = "") {
        self.keyCode = keyCode
        self.characters = characters
        self.charactersIgnoringModifiers = charactersIgnoringModifiers ?? characters
        self.modifierFlags = modifierFlags
        self.name = name
    }

    /// What identifies a held key: its code, or its name for a key without one.
    var trackingID: KeyTrackingID { keyCode == .keyboardErrorUndefined ? .name(name) : .code(keyCode) }
}

/// One key press, as `pressesBegan` receives it (UIPress).
public struct Press: Hashable, Sendable {
    /// Where a press is in its life.
    public enum Phase: Sendable { case began, ended, cancelled }

    /// The key.
    public var key: Key
    /// Where it is: began, ended, or cancelled (its window was hidden, released or moved, or its screen went).
    public var phase: Phase = .began
}

/// One touch (UITouch): a pointer from the press that began it to the release that ends it, or to its
/// cancellation. The touch does not keep its window or view alive.
@MainActor
public final class Touch: Hashable {
    /// Where a touch is in its life.
    public enum Phase: Sendable { case began, moved, ended, cancelled }

    /// Where it is now.
    public internal(set) var phase: Phase
    /// The window it began in; it stays with that window until it ends (nil once the window is gone).
    public var window: Window? { windowStorage }
    /// The view hit-tested when it began; moves and the end go to it too (nil once the view is gone).
    public var view: View? { viewStorage }
    /// Where it is, in desktop coordinates.
    public internal(set) var locationOnDesktop: Point

    weak var windowStorage: Window?
    weak var viewStorage: View?
    /// The window it began in, to find it again when that window is released.
    let windowID: ObjectIdentifier
    /// The gesture recognizers that see it: those of the hit view and of its superviews.
    var recognizers: [GestureRecognizer] = []
    /// Whether a recognizer took it from the hit view (which got `touchesCancelled`).
    var claimed = false

    init(window: Window, view: View, at p: Point) {
        windowStorage = window
        viewStorage = view
        windowID = ObjectIdentifier(window)
        self.locationOnDesktop = p
        self.phase = .began
    }

    /// Where the touch is in a view's coordinates (`nil`: its window's, as in UIKit).
    public func location(in view: View?) -> Point {
        if let view { return view.pointFromDesktop(locationOnDesktop) }
        return window?.pointFromDesktop(locationOnDesktop) ?? locationOnDesktop
    }

    /// Identity.
    nonisolated public static func == (a: Touch, b: Touch) -> Bool { a === b }
    /// Identity.
    nonisolated public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(self)) }
}

/// A key held down: where its press went, so that its end or cancellation goes there too.
@MainActor
final class TrackedPress {
    weak var responder: Responder?
    let windowID: ObjectIdentifier
    let press: Press

    init(_ press: Press, responder: Responder, windowID: ObjectIdentifier) {
        self.press = press
        self.responder = responder
        self.windowID = windowID
    }
}

/// Which key a press is, to match its release: its key code, or its name for a key without one.
enum KeyTrackingID: Hashable {
    case code(KeyboardHIDUsage)
    case name(String)
}
