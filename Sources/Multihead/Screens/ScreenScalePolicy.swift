/// How each screen's scale (pixels per point) is chosen, in this order: a factor named for the screen
/// (`MULTIHEAD_SCREEN_SCALE_FACTORS`, Qt's `QT_SCREEN_SCALE_FACTORS` syntax by name: `DP-1=2;HDMI-1=1`);
/// else the desktop's one scale (`Xft.dpi` / 96) where the desktop sets it; else the monitor's own pixel
/// density: 2 for a monitor at least 1200 pixels tall with more than 192 pixels per inch (mutter's rule),
/// else 1. Each source's value is taken only from `smallestFactor` (0.5, `Xft.dpi` 48) to `largestFactor`
/// (8, `Xft.dpi` 768); one outside that, or not a number, is passed over for the next source. Pure: the
/// backend applies it to every description it reads.
public struct ScreenScalePolicy: Sendable, Equatable {
    /// The environment variable a process's factors come from.
    public static let environmentVariable = "MULTIHEAD_SCREEN_SCALE_FACTORS"
    /// The largest factor taken: beyond it a 1-point line would be wider than a small monitor.
    public static let largestFactor = 8.0
    /// The smallest factor taken (`Xft.dpi` 48): below it a point is under half a pixel, and a tiny
    /// factor (`Xft.dpi: 1e-300`) would make a screen 10^305 points wide.
    public static let smallestFactor = 0.5

    /// Scales by screen name, first.
    public var factors: [String: Double]
    /// The desktop's one scale for every screen, when it sets one (`Xft.dpi` / 96).
    public var desktopScale: Double?

    /// A policy from factors by name and the desktop's scale.
    public init(factors: [String: Double] = [:], desktopScale: Double? = nil) {
        self.factors = factors
        self.desktopScale = desktopScale
    }

    /// The scale of a screen as the backend describes it (its name, frame in pixels and size in millimetres).
    /// A factor that is not a number from `smallestFactor` to `largestFactor` is passed over, as if not
    /// given.
    public func scale(for d: ScreenDescription) -> Double {
        if let f = factors[d.name], Self.isValid(f) { return f }
        if let desktopScale, Self.isValid(desktopScale) { return desktopScale }
        return Self.densityScale(pixels: d.frame.size, millimetres: d.physicalSize)
    }

    /// Whether a factor can be a screen's scale.
    static func isValid(_ f: Double) -> Bool { f.isFinite && f >= smallestFactor && f <= largestFactor }

    /// 2 for a monitor at least 1200 pixels tall whose pixels per inch, across and down, are both above
    /// 192; else 1 (also without a physical size).
    public static func densityScale(pixels: Size, millimetres: Size) -> Double {
        guard millimetres.width > 0, millimetres.height > 0, pixels.height >= 1200 else { return 1 }
        let across = pixels.width / (millimetres.width / 25.4), down = pixels.height / (millimetres.height / 25.4)
        return across > 192 && down > 192 ? 2 : 1
    }

    /// Reads `NAME=F;NAME=F…` (spaces around names and numbers allowed, a trailing `;` too): each factor a
    /// decimal number from `smallestFactor` to `largestFactor`, each name once.
    public static func parseFactors(_ text: String) throws(ScaleFactorError) -> [String: Double] {
        var result: [String: Double] = [:]
        for entry in text.split(separator: ";", omittingEmptySubsequences: false) {
            let item = String(entry).trimmed(of: " \t")
            if item.isEmpty { continue }
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw .malformed(item) }
            let name = String(parts[0]).trimmed(of: " \t")
            guard !name.isEmpty else { throw .malformed(item) }
            guard let value = Double(decimal: String(parts[1]).trimmed(of: " \t")), isValid(value) else {
                throw .badFactor(name: name, text: String(parts[1]))
            }
            guard result[name] == nil else { throw .repeated(name) }
            result[name] = value
        }
        return result
    }
}

/// A scale factor list that cannot be read, with what a person needs to mend it.
public enum ScaleFactorError: Error, Equatable, CustomStringConvertible {
    /// An entry that is not NAME=FACTOR.
    case malformed(String)
    /// A factor that is not a number from 0.5 to 8.
    case badFactor(name: String, text: String)
    /// A name given twice.
    case repeated(String)

    public var description: String {
        switch self {
        case .malformed(let item): "\"\(item.terminalEscaped)\" is not NAME=FACTOR (such as DP-1=2)"
        case .badFactor(let name, let text): "the factor for \(name.terminalEscaped), \"\(text.terminalEscaped)\", is not a number from 0.5 to 8"
        case .repeated(let name): "\(name.terminalEscaped) is given twice"
        }
    }
}

extension String {
    /// The string without the given characters at either end.
    fileprivate func trimmed(of set: String) -> String {
        let chars = Set(set)
        var s = Substring(self)
        while let f = s.first, chars.contains(f) { s.removeFirst() }
        while let l = s.last, chars.contains(l) { s.removeLast() }
        return String(s)
    }
}
