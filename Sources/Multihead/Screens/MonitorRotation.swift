/// How a monitor is turned, as xrandr's `--rotate` names it: a portrait monitor is `left` or `right`. The
/// size a monitor is plugged with is its own mode (the panel's pixels); turned a quarter, it covers the
/// mode's height by its width on the desktop.
public enum MonitorRotation: String, Sendable, CaseIterable {
    /// Not turned.
    case normal
    /// Turned a quarter counter-clockwise (RandR's 90°, Wayland's `90`).
    case left
    /// Turned half round (180°).
    case inverted
    /// Turned a quarter clockwise (RandR's 270°, Wayland's `270`).
    case right

    /// Counter-clockwise degrees, as `Screen.rotation` and `screens --json`'s `rotation` say them.
    public var degrees: Int {
        switch self {
        case .normal: 0
        case .left: 90
        case .inverted: 180
        case .right: 270
        }
    }

    /// The space a mode of `size` covers turned this way.
    public func turning(_ size: Size) -> Size {
        degrees % 180 == 0 ? size : Size(width: size.height, height: size.width)
    }

    /// The compositor's (and Wayland's) name of the turn: counter-clockwise degrees, `normal` for none.
    package var waylandTransform: String { self == .normal ? "normal" : String(degrees) }

    /// The turn a compositor's `transform` names; nil for a flipped one or anything else.
    package init?(waylandTransform text: String) {
        guard let turn = Self.allCases.first(where: { $0.waylandTransform == text }) else { return nil }
        self = turn
    }
}
