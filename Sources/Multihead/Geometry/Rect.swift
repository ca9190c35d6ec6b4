import Foundation

/// A rectangle: an origin and a size, in points.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The corner with the smallest coordinates (for a standardized rect).
    public var origin: Point
    /// The extent; may be negative until `standardized`.
    public var size: Size

    /// The empty rectangle at the origin.
    public static let zero = Rect(origin: .zero, size: .zero)

    /// Makes a rectangle from an origin and a size.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Makes a rectangle from its four numbers.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// Whether all four numbers are finite.
    public var isFinite: Bool { origin.isFinite && size.isFinite }

    /// The same rectangle with a non-negative width and height, as CGRect's `standardized`.
    public var standardized: Rect {
        var r = self
        if r.size.width < 0 { r.origin.x += r.size.width; r.size.width = -r.size.width }
        if r.size.height < 0 { r.origin.y += r.size.height; r.size.height = -r.size.height }
        return r
    }

    /// The smallest x of the standardized rectangle.
    public var minX: Double { standardized.origin.x }
    /// The smallest y of the standardized rectangle.
    public var minY: Double { standardized.origin.y }
    /// The largest x of the standardized rectangle.
    public var maxX: Double { let s = standardized; return s.origin.x + s.size.width }
    /// The largest y of the standardized rectangle.
    public var maxY: Double { let s = standardized; return s.origin.y + s.size.height }
    /// The centre x.
    public var midX: Double { (minX + maxX) / 2 }
    /// The centre y.
    public var midY: Double { (minY + maxY) / 2 }
    /// The width of the standardized rectangle.
    public var width: Double { abs(size.width) }
    /// The height of the standardized rectangle.
    public var height: Double { abs(size.height) }
    /// Whether the rectangle covers no area.
    public var isEmpty: Bool { size.width == 0 || size.height == 0 }

    /// Whether the point lies inside: the minimum edges are in, the maximum edges are out (as CGRect).
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// The area both rectangles cover, or `nil` when they do not overlap.
    public func intersection(_ other: Rect) -> Rect? {
        let x0 = Swift.max(minX, other.minX), y0 = Swift.max(minY, other.minY)
        let x1 = Swift.min(maxX, other.maxX), y1 = Swift.min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The rectangle shrunk by `dx` on the left and right and `dy` at the top and bottom (grown when
    /// negative), as CGRect's `insetBy(dx:dy:)`.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// The smallest rectangle that covers both.
    public func union(_ other: Rect) -> Rect {
        let x0 = Swift.min(minX, other.minX), y0 = Swift.min(minY, other.minY)
        let x1 = Swift.max(maxX, other.maxX), y1 = Swift.max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The rectangle moved by dx, dy.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(origin: Point(x: origin.x + dx, y: origin.y + dy), size: size)
    }

    /// "WxH+X+Y", xrandr's notation.
    public var description: String {
        "\(size.width.compact)x\(size.height.compact)+\(origin.x.compact)+\(origin.y.compact)"
    }
}

extension Rect {
    /// Parses xrandr's geometry notation "WxH+X+Y" (or "WxH", at the origin); nil when malformed,
    /// non-finite, or with a size that is not positive.
    public init?(geometry text: String) {
        // Foundation's `.whitespaces` (Unicode's Zs and the tab), trimmed here without Foundation: its
        // trimming bridges through NSString, which cost a forwarded `multihead plug` a twentieth of its run.
        let blank = { (c: Character) in c == "\t" || c.unicodeScalars.allSatisfy { $0.properties.generalCategory == .spaceSeparator } }
        var s = Substring(text)
        while let c = s.first, blank(c) { s.removeFirst() }
        while let c = s.last, blank(c) { s.removeLast() }
        guard let xIndex = s.firstIndex(where: { $0 == "x" || $0 == "X" }) else { return nil }
        let wText = s[..<xIndex]
        var rest = s[s.index(after: xIndex)...]
        var hText = rest, px = 0.0, py = 0.0
        if let signIndex = rest.firstIndex(where: { $0 == "+" || $0 == "-" }) {
            hText = rest[..<signIndex]
            rest = rest[signIndex...]
            let parts = Rect.signedNumbers(String(rest))
            guard parts.count == 2 else { return nil }
            px = parts[0]
            py = parts[1]
        }
        guard let w = Double(decimal: wText), let h = Double(decimal: hText), w > 0, h > 0, w.isFinite, h.isFinite,
              px.isFinite, py.isFinite else { return nil }
        self.init(x: px, y: py, width: w, height: h)
    }

    /// "+10-20" → [10, -20]; anything else → fewer or more than two numbers.
    private static func signedNumbers(_ text: String) -> [Double] {
        var result: [Double] = [], current = ""
        for ch in text {
            if ch == "+" || ch == "-" {
                if !current.isEmpty { guard let v = Double(decimal: current) else { return [] }; result.append(v) }
                current = ch == "-" ? "-" : ""
            } else {
                current.append(ch)
            }
        }
        guard let v = Double(decimal: current) else { return [] }
        result.append(v)
        return result
    }
}

extension Double {
    /// A plain decimal number ("12", "-3", "59.94"); nil for anything else, including the hexadecimal,
    /// exponent, "inf" and "nan" forms that `Double(_:)` takes.
    public init?<S: StringProtocol>(decimal text: S) {
        var digits = 0, dots = 0
        for (i, ch) in text.enumerated() {
            if ch == "-" && i == 0 { continue }
            if ch == "." { dots += 1; continue }
            guard ch.isASCII, ch.isNumber else { return nil }
            digits += 1
        }
        guard digits > 0, dots <= 1, let v = Double(String(text)) else { return nil }
        self = v
    }
}
