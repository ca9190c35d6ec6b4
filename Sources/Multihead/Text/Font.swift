/// A font (UIFont): the system font at a size and weight. On X11 it is DejaVu Sans, regular below
/// `.semibold`, bold from it (cairo's toy font API has those two).
public struct Font: Hashable, Sendable {
    /// How heavy the strokes are (UIFont.Weight).
    public struct Weight: RawRepresentable, Hashable, Sendable, Comparable {
        /// UIKit's value, from −1 (ultra light) to 1 (black).
        public let rawValue: Double
        /// A weight by value.
        public init(rawValue: Double) { self.rawValue = rawValue }
        /// Regular.
        public static let regular = Weight(rawValue: 0)
        /// Medium.
        public static let medium = Weight(rawValue: 0.23)
        /// Semibold.
        public static let semibold = Weight(rawValue: 0.3)
        /// Bold.
        public static let bold = Weight(rawValue: 0.4)
        /// Heavy.
        public static let heavy = Weight(rawValue: 0.56)
        /// Orders by heaviness.
        public static func < (a: Weight, b: Weight) -> Bool { a.rawValue < b.rawValue }
    }

    /// The size in points, 0 < size ≤ 10,000: a non-finite or non-positive size is refused (logged; 17,
    /// UIKit's body size), a larger one clamped (logged).
    public var pointSize: Double { didSet { pointSize = Self.checked(pointSize) } }
    /// The weight.
    public var weight: Weight
    /// Whether digits all have the same width (for counters that should not jitter).
    public var hasMonospacedDigits: Bool

    /// The largest size a font takes, in points.
    public static let maximumPointSize = 10_000.0

    /// A font; a non-finite or non-positive size becomes 17, UIKit's body size, and one over
    /// `maximumPointSize` that (each logged).
    public init(pointSize: Double, weight: Weight = .regular, monospacedDigits: Bool = false) {
        self.pointSize = Self.checked(pointSize)
        self.weight = weight
        hasMonospacedDigits = monospacedDigits
    }

    private static func checked(_ size: Double) -> Double {
        if size.isFinite && size > 0 && size <= maximumPointSize { return size }
        let used = size.isFinite && size > 0 ? maximumPointSize : 17
        Application.logger.warning("refused font size \(size); using \(used)")
        return used
    }

    /// The system font at a size and weight.
    public static func systemFont(ofSize size: Double, weight: Weight = .regular) -> Font {
        Font(pointSize: size, weight: weight)
    }

    /// The bold system font at a size.
    public static func boldSystemFont(ofSize size: Double) -> Font { Font(pointSize: size, weight: .bold) }

    /// The system font with digits of one width (DejaVu Sans's digits already are).
    public static func monospacedDigitSystemFont(ofSize size: Double, weight: Weight) -> Font {
        Font(pointSize: size, weight: weight, monospacedDigits: true)
    }

    /// Whether the drawing engine draws it bold.
    public var isBold: Bool { weight >= .semibold }

    /// The same font at another size.
    public func withSize(_ size: Double) -> Font { Font(pointSize: size, weight: weight, monospacedDigits: hasMonospacedDigits) }
}

/// How lines sit horizontally in a label (NSTextAlignment).
public enum TextAlignment: Sendable, Hashable {
    /// At the left edge.
    case left
    /// Centred.
    case center
    /// At the right edge.
    case right
    /// The script's natural side: left (the text this package draws is left to right).
    case natural
    /// Stretched to both edges; drawn as `left` (cairo's toy text has no justification).
    case justified
}

/// Where a line that does not fit breaks (NSLineBreakMode).
public enum LineBreakMode: Sendable, Hashable {
    /// Between words; a word longer than a line breaks between characters.
    case byWordWrapping
    /// Between any two characters.
    case byCharWrapping
    /// The last line that fits ends in "…".
    case byTruncatingTail
}

/// Measures text as the drawing engine draws it: the X11 backend's is cairo's own; the default is an
/// estimate (0.6 em a character, lines 1.25 em) that says it is one.
@MainActor
public protocol TextMeasuring {
    /// The advance width of one line of text, in points.
    func width(of text: String, font: Font) -> Double
    /// The height of one line (ascent plus descent) and the ascent, in points.
    func lineMetrics(font: Font) -> (height: Double, ascent: Double)
    /// Whether this is an estimate rather than the drawing engine's measurement.
    var isEstimate: Bool { get }
}

/// How text is measured where no window says: a label outside any window (`sizeToFit()` before
/// `addSubview`, as UIKit code does) measures as the drawing engine of this process draws.
@MainActor
package enum TextMeasurers {
    /// The drawing engine's measurer, registered once by the first drawing backend that starts (the X11
    /// backend: cairo's, the same for every X11 backend); nil until then, when labels use the estimate.
    package static var drawingEngine: (any TextMeasuring)?
}

/// The estimate: deterministic, and close to DejaVu Sans for mixed text; not what any screen draws.
public struct EstimatedTextMeasurer: TextMeasuring {
    /// Makes the estimate.
    public init() {}
    /// 0.6 em a character.
    public func width(of text: String, font: Font) -> Double { Double(text.count) * font.pointSize * 0.6 }
    /// 1.25 em a line, the ascent 0.95 em.
    public func lineMetrics(font: Font) -> (height: Double, ascent: Double) { (font.pointSize * 1.25, font.pointSize * 0.95) }
    /// True.
    public var isEstimate: Bool { true }
}
