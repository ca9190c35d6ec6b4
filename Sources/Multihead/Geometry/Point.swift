/// A location in a two-dimensional coordinate system, in points.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate (grows downwards, as in UIKit).
    public var y: Double

    /// The origin, (0, 0).
    public static let zero = Point(x: 0, y: 0)

    /// Makes a point from its coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Whether both coordinates are finite (not NaN, not infinite).
    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// "(x, y)".
    public var description: String { "(\(x.compact), \(y.compact))" }
}

/// The width and height of something, in points.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double

    /// A size of zero by zero.
    public static let zero = Size(width: 0, height: 0)

    /// Makes a size from its extents.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Whether both extents are finite.
    public var isFinite: Bool { width.isFinite && height.isFinite }

    /// "WxH".
    public var description: String { "\(width.compact)x\(height.compact)" }
}

extension Double {
    /// The shortest text for a value that is usually whole: "1920" rather than "1920.0".
    var compact: String {
        if isFinite, rounded() == self, abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }
}
