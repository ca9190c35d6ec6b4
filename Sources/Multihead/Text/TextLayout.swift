/// Text broken into lines to fit a width: what a `Label` measures and draws. A pure function over a
/// measurer, so that measuring and drawing agree.
@MainActor
public struct TextLayout {
    /// The lines, top to bottom.
    public var lines: [String]
    /// Each line's advance width, in points.
    public var widths: [Double]
    /// The height of one line and its ascent, in points.
    public var lineHeight: Double, ascent: Double

    /// The size the lines take: the widest line, and a line height per line (whole points, rounded up).
    public var size: Size {
        Size(width: (widths.max() ?? 0).rounded(.up), height: (Double(lines.count) * lineHeight).rounded(.up))
    }

    /// Most labels: one paragraph that fits on its line, which is then the whole layout (whatever the
    /// number of lines and the break mode). Its width, or nil for any other text: the same line as the
    /// full layout, without the paragraph split and the table of widths (a label's text ticking each
    /// second pays for them).
    static func fittingLineWidth(_ text: String, font: Font, width: Double, measurer: any TextMeasuring) -> Double? {
        guard let last = text.utf8.last, last != UInt8(ascii: " "), !text.utf8.contains(UInt8(ascii: "\n"))
        else { return nil }
        let maxWidth = width.isFinite && width > 0 ? width : .infinity
        let w = measurer.width(of: text, font: font)
        return w <= maxWidth + 1e-9 ? w : nil
    }

    /// Lays out `text` within `width` (infinite: each paragraph on one line) in at most `numberOfLines`
    /// lines (0: no limit). Paragraphs end at "\n". Lines break between words (`.byCharWrapping`: between
    /// characters); what is left after the last line allowed is dropped, and with `.byTruncatingTail` that
    /// last line ends in "…", as UILabel does.
    public init(_ text: String, font: Font, width: Double, numberOfLines: Int, lineBreakMode: LineBreakMode,
                measurer: any TextMeasuring) {
        self.init(text, font: font, width: width, numberOfLines: numberOfLines, lineBreakMode: lineBreakMode,
                  measurer: measurer, fittingLineTried: false)
    }

    /// The layout, without trying `fittingLineWidth` again when the caller did (a label drawing).
    init(_ text: String, font: Font, width: Double, numberOfLines: Int, lineBreakMode: LineBreakMode,
         measurer: any TextMeasuring, fittingLineTried: Bool) {
        let metrics = measurer.lineMetrics(font: font)
        lineHeight = metrics.height
        ascent = metrics.ascent
        let limit = numberOfLines > 0 ? numberOfLines : Int.max
        let maxWidth = width.isFinite && width > 0 ? width : .infinity
        if !fittingLineTried, let w = Self.fittingLineWidth(text, font: font, width: width, measurer: measurer) {
            lines = [text]
            widths = [w]
            return
        }
        // No cache of measured strings: every search below measures only prefixes about a line long, so a
        // long text costs time in proportion to its length, and no memory beyond its lines.
        func fits(_ s: Substring) -> Bool { measurer.width(of: String(s), font: font) <= maxWidth + 1e-9 }
        var out: [String] = []
        var truncated = false
        paragraphs: for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = paragraph
            repeat {
                guard out.count < limit else { truncated = true; break paragraphs }
                // The last line allowed, in a truncating label: the rest, cut to fit with "…".
                if out.count == limit - 1 && lineBreakMode == .byTruncatingTail {
                    if !Self.fittingPrefix(of: rest, maxWidth: maxWidth, fits: fits).all { truncated = true }
                    out.append(String(rest))
                    rest = ""
                    continue
                }
                let line = Self.longestPrefix(of: rest, byWords: lineBreakMode != .byCharWrapping, maxWidth: maxWidth, fits: fits)
                out.append(String(line).trimmingTrailingSpaces())
                rest = rest[line.endIndex...].drop { $0 == " " }
            } while !rest.isEmpty
        }
        if truncated, lineBreakMode == .byTruncatingTail, let last = out.last, !last.hasSuffix("…") {
            out.removeLast()
            out.append(Self.truncateTail(Substring(last), maxWidth: maxWidth, measurer: measurer, font: font))
        }
        lines = out.isEmpty ? [""] : out
        widths = lines.map { measurer.width(of: $0, font: font) }
    }

    /// How many leading characters of `text` satisfy `fits` (assumed to hold for every prefix shorter than
    /// one that holds), and whether that is all of them. Found by doubling, then halving: about 2·log₂ L
    /// measures of prefixes at most twice the answer L, however long `text` is.
    static func fittingPrefix(of text: Substring, maxWidth: Double, fits: (Substring) -> Bool) -> (count: Int, all: Bool) {
        if maxWidth == .infinity { return (text.count, true) }
        var good = 0, bad: Int?
        var k = 1
        while bad == nil {
            guard let end = text.index(text.startIndex, offsetBy: k, limitedBy: text.endIndex) else {
                // Past the end: the whole text is the next prefix to try.
                let count = text.count
                if count == good { return (count, true) }
                if fits(text) { return (count, true) }
                bad = count
                break
            }
            if fits(text[..<end]) {
                good = k
                if end == text.endIndex { return (k, true) }
                k *= 2
            } else {
                bad = k
            }
        }
        var hi = bad ?? good + 1
        while hi - good > 1 {
            let mid = (good + hi) / 2
            if fits(text[..<text.index(text.startIndex, offsetBy: mid)]) { good = mid } else { hi = mid }
        }
        return (good, false)
    }

    /// The longest start of `text` that fits: whole words when asked (a first word too long breaks
    /// between characters), at least one character.
    private static func longestPrefix(of text: Substring, byWords: Bool, maxWidth: Double,
                                      fits: (Substring) -> Bool) -> Substring {
        let (count, all) = fittingPrefix(of: text, maxWidth: maxWidth, fits: fits)
        if all { return text }
        // The first character that does not fit: a break may fall on a space there or before it.
        let cut = text.index(text.startIndex, offsetBy: count)
        if byWords, let space = text[...cut].lastIndex(of: " "), space > text.startIndex {
            return text[..<space]
        }
        return text[..<text.index(text.startIndex, offsetBy: max(1, count))]
    }

    /// A line cut so that it and "…" fit.
    private static func truncateTail(_ line: Substring, maxWidth: Double, measurer: any TextMeasuring, font: Font) -> String {
        func withEllipsis(_ s: Substring) -> String { String(s).trimmingTrailingSpaces() + "…" }
        let (count, _) = fittingPrefix(of: line, maxWidth: maxWidth) {
            measurer.width(of: withEllipsis($0), font: font) <= maxWidth + 1e-9
        }
        return withEllipsis(line[..<line.index(line.startIndex, offsetBy: count)])
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
