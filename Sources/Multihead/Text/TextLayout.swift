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
        // Each string measured once: a line that fits is measured to know it, and its width is kept.
        var measured: [String: Double] = [:]
        func measure(_ s: String) -> Double {
            if let w = measured[s] { return w }
            let w = measurer.width(of: s, font: font)
            measured[s] = w
            return w
        }
        func fits(_ s: String) -> Bool { measure(s) <= maxWidth + 1e-9 }
        var out: [String] = []
        var truncated = false
        paragraphs: for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            var rest = Substring(paragraph)
            repeat {
                guard out.count < limit else { truncated = true; break paragraphs }
                // The last line allowed, or a tail-truncating label's: the rest on one line, cut to fit.
                // The last line allowed, in a truncating label: the rest, cut to fit with "…".
                if out.count == limit - 1 && lineBreakMode == .byTruncatingTail {
                    out.append(String(rest))
                    if !fits(String(rest)) { truncated = true }
                    rest = ""
                    continue
                }
                let line = Self.longestPrefix(of: rest, byWords: lineBreakMode != .byCharWrapping, fits: fits)
                out.append(String(line).trimmingTrailingSpaces())
                rest = rest[line.endIndex...].drop { $0 == " " }
            } while !rest.isEmpty
        }
        if truncated, lineBreakMode == .byTruncatingTail, let last = out.last, !last.hasSuffix("…") {
            out.removeLast()
            out.append(Self.truncateTail(last, hasMore: true, fits: fits))
        }
        lines = out.isEmpty ? [""] : out
        widths = lines.map(measure)
    }

    /// The longest start of `text` that fits: whole words when asked (a first word too long breaks
    /// between characters), at least one character.
    private static func longestPrefix(of text: Substring, byWords: Bool, fits: (String) -> Bool) -> Substring {
        if fits(String(text)) { return text }
        if byWords {
            var best: Substring?
            var i = text.startIndex
            while let space = text[i...].firstIndex(of: " ") {
                let candidate = text[..<space]
                if !candidate.isEmpty, fits(String(candidate)) { best = candidate } else if best != nil { break }
                i = text.index(after: space)
            }
            if let best { return best }
        }
        var end = text.index(after: text.startIndex)
        while end < text.endIndex, fits(String(text[..<text.index(after: end)])) { end = text.index(after: end) }
        return text[..<end]
    }

    /// A line cut so that it and "…" fit (the whole line when it fits and nothing follows).
    private static func truncateTail(_ line: String, hasMore: Bool, fits: (String) -> Bool) -> String {
        if !hasMore && fits(line) { return line }
        var chars = Array(line)
        while !chars.isEmpty, !fits(String(chars).trimmingTrailingSpaces() + "…") { chars.removeLast() }
        return String(chars).trimmingTrailingSpaces() + "…"
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
