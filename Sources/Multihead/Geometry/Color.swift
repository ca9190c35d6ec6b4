/// A colour in sRGB with straight (not premultiplied) alpha, each component 0…1.
public struct Color: Hashable, Sendable {
    /// Red, 0…1 (clamped; a non-finite value becomes 0, logged).
    public var red: Double { didSet { red = Self.clamp(red) } }
    /// Green, 0…1 (clamped; a non-finite value becomes 0, logged).
    public var green: Double { didSet { green = Self.clamp(green) } }
    /// Blue, 0…1 (clamped; a non-finite value becomes 0, logged).
    public var blue: Double { didSet { blue = Self.clamp(blue) } }
    /// Opacity, 0…1 (clamped; a non-finite value becomes 0, logged).
    public var alpha: Double { didSet { alpha = Self.clamp(alpha) } }

    /// Makes a colour; components are clamped to 0…1 and a non-finite one becomes 0 (logged).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Self.clamp(red)
        self.green = Self.clamp(green)
        self.blue = Self.clamp(blue)
        self.alpha = Self.clamp(alpha)
    }

    /// A component within 0…1: out-of-range values are ordinary (a computed blend), a non-finite one is a
    /// mistake worth a line in the log.
    private static func clamp(_ v: Double) -> Double {
        guard FiniteInput.accepts(v.isFinite, "colour component \(v); using 0") else { return 0 }
        return Swift.min(1, Swift.max(0, v))
    }

    /// Makes a grey of the given brightness.
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// The same colour with another alpha.
    public func withAlphaComponent(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Fully transparent.
    public static let clear = Color(white: 0, alpha: 0)
    /// Black.
    public static let black = Color(white: 0)
    /// White.
    public static let white = Color(white: 1)
    /// Mid grey.
    public static let gray = Color(white: 0.5)
    /// Pure red.
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Pure green.
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Pure blue.
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// Yellow.
    public static let yellow = Color(red: 1, green: 1, blue: 0)
    /// Orange.
    public static let orange = Color(red: 1, green: 0.5, blue: 0)
}
