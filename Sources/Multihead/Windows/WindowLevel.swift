/// Where a window sits on the z-axis (UIWindow.Level): higher levels are in front.
public struct WindowLevel: Hashable, Comparable, Sendable, CustomStringConvertible, RawRepresentable {
    /// The level as a number; always finite.
    public let rawValue: Double

    /// Makes a level; returns nil for a non-finite value.
    public init?(_ rawValue: Double) {
        guard rawValue.isFinite else { return nil }
        self.rawValue = rawValue
    }

    /// Makes a level from its raw value, as `UIWindow.Level(rawValue:)` does; nil for a non-finite value.
    public init?(rawValue: Double) { self.init(rawValue) }

    private init(finite: Double) { rawValue = finite }

    /// The level of app content, 0.
    public static let normal = WindowLevel(finite: 0)
    /// The level of the status bar, 1000.
    public static let statusBar = WindowLevel(finite: 1000)
    /// The level of alerts, 2000.
    public static let alert = WindowLevel(finite: 2000)

    /// A level this far above another (non-finite results give `self`).
    public static func + (lhs: WindowLevel, rhs: Double) -> WindowLevel {
        WindowLevel(lhs.rawValue + rhs) ?? lhs
    }

    /// Orders by raw value.
    public static func < (a: WindowLevel, b: WindowLevel) -> Bool { a.rawValue < b.rawValue }

    /// The raw value.
    public var description: String { rawValue.compact }
}
