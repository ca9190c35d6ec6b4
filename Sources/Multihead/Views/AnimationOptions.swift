/// How an animation runs (UIView.AnimationOptions), with UIKit's values.
public struct AnimationOptions: OptionSet, Hashable, Sendable {
    /// The options as bits.
    public let rawValue: UInt
    /// Options from bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Touches reach the view while it animates (they always do here: hit testing uses the final values).
    public static let allowUserInteraction = Self(rawValue: 1 << 1)
    /// Start from what is drawn now (always so here: an interrupted animation never jumps).
    public static let beginFromCurrentState = Self(rawValue: 1 << 2)
    /// Run again and again until another animation of the property, or a removal, ends it.
    public static let `repeat` = Self(rawValue: 1 << 3)
    /// Run forward, then backward (with `repeat`, for ever).
    public static let autoreverse = Self(rawValue: 1 << 4)
    /// Slow at both ends (the default).
    public static let curveEaseInOut = Self(rawValue: 0 << 16)
    /// Slow at the start.
    public static let curveEaseIn = Self(rawValue: 1 << 16)
    /// Slow at the end.
    public static let curveEaseOut = Self(rawValue: 2 << 16)
    /// Even throughout.
    public static let curveLinear = Self(rawValue: 3 << 16)

    /// The timing curve: progress 0…1 to eased progress 0…1 (CSS's cubic Béziers, as Core Animation's
    /// named curves).
    func eased(_ t: Double) -> Double {
        switch rawValue & (3 << 16) {
        case 1 << 16: return Self.bezier(t, 0.42, 0, 1, 1)
        case 2 << 16: return Self.bezier(t, 0, 0, 0.58, 1)
        case 3 << 16: return t
        default: return Self.bezier(t, 0.42, 0, 0.58, 1)
        }
    }

    /// y at x = t on the cubic Bézier from (0, 0) to (1, 1) with control points (x1, y1), (x2, y2).
    private static func bezier(_ t: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func coord(_ s: Double, _ a: Double, _ b: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * b + s * s * s
        }
        // x(s) is increasing: bisection finds s for x = t.
        var lo = 0.0, hi = 1.0
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if coord(mid, x1, x2) < t { lo = mid } else { hi = mid }
        }
        return coord((lo + hi) / 2, y1, y2)
    }
}
