internal import CCairo
import Multihead

/// Text as cairo draws it: the one place that picks the face (so drawing and measuring agree), and the
/// measurer the X11 backend hands to labels.
@MainActor
enum CairoText {
    /// Selects DejaVu Sans at the font's size, bold from `.semibold`, on a cairo context.
    /// `cairo_select_font_face`, `cairo_set_font_size`.
    static func select(_ font: Font, on cr: OpaquePointer?) {
        cairo.cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                                     font.isBold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo.cairo_set_font_size(cr, font.pointSize)
    }

    /// The font last selected on the measuring context: selecting it again each measure cost more than the
    /// measure.
    private static var measuringFont: Font?

    /// Selects `font` on the measuring context, unless it is selected already.
    private static func selectForMeasuring(_ font: Font) {
        guard measuringFont != font else { return }
        select(font, on: context)
        measuringFont = font
    }

    /// A context on a 1×1 surface, for measuring; made on first use and kept.
    private static let context: OpaquePointer? = {
        let surface = cairo.cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)
        // The context holds its own reference to the surface.
        defer { cairo.cairo_surface_destroy(surface) }
        return cairo.cairo_create(surface)
    }()

    /// The ink of one line drawn at (0, 0) (the top of its line box): left, top, right and bottom in
    /// points, as cairo computes them (for tests that compare with the pixels). `cairo_text_extents`.
    static func ink(of text: String, font: Font) -> Rect {
        selectForMeasuring(font)
        var t = cairo_text_extents_t()
        cairo.cairo_text_extents(context, text, &t)
        var f = cairo_font_extents_t()
        cairo.cairo_font_extents(context, &f)
        return Rect(x: t.x_bearing, y: f.ascent + t.y_bearing, width: t.width, height: t.height)
    }

    /// A line's advance, or its ink's right edge when a glyph reaches past it, from cairo's extents of the
    /// whole line. `cairo_text_extents`.
    static func lineWidth(of text: String, font: Font) -> Double {
        selectForMeasuring(font)
        var e = cairo_text_extents_t()
        cairo.cairo_text_extents(context, text, &e)
        return max(e.x_advance, e.x_bearing + e.width)
    }

    /// One printable ASCII character in a font, as `cairo_text_extents` measures it alone.
    private struct Glyph {
        var advance: Double
        /// The ink's left edge and width from the pen; a width of 0: no ink (a space).
        var bearing: Double, width: Double
    }

    /// Per font, the printable ASCII characters measured so far (index: the byte − 0x20). At most 16
    /// fonts: a font size that animates makes a new font every frame, and must not grow the table for ever.
    private static var asciiGlyphs: [Font: [Glyph?]] = [:]
    /// The font `asciiWidth` measured last, and its entry of `asciiGlyphs`.
    private static var lastASCII: (font: Font, glyphs: [Glyph?])?

    /// The width of a line of printable ASCII, as `cairo_text_extents` would give it, from each character
    /// measured once: cairo's toy API draws one glyph a byte, without kerning, each at the pen moved by the
    /// advances before it, and a line's ink is the union of its glyphs' (cairo's metrics here are in 64ths
    /// of a pixel, so the sums come out the same: `CairoTextTests` compares 10,000 lines). A clock's label
    /// is measured every second; this spares cairo's conversion of the line to glyphs each time. Nil for
    /// any other text.
    static func asciiWidth(of text: String, font: Font) -> Double? {
        for byte in text.utf8 where byte < 0x20 || byte > 0x7E { return nil }
        // The font measured last, all of whose characters here are known: a clock's label, with no hashing.
        if let last = lastASCII, last.font == font, let w = width(of: text, from: last.glyphs) { return w }
        return measureASCII(text, font: font)
    }

    /// A line's width from its characters' measures, or nil when one of them has none yet.
    private static func width(of text: String, from glyphs: [Glyph?]) -> Double? {
        var pen = 0.0, right = -Double.infinity
        for byte in text.utf8 {
            guard let g = glyphs[Int(byte &- 0x20)] else { return nil }
            if g.width > 0 { right = max(right, pen + g.bearing + g.width) }
            pen += g.advance
        }
        return max(pen, right)
    }

    /// Measures the characters of a line of printable ASCII not measured yet in `font`, keeps them, and
    /// returns the line's width. Apart from `asciiWidth`, whose usual run then stays short.
    @inline(never)
    private static func measureASCII(_ text: String, font: Font) -> Double {
        var glyphs = asciiGlyphs[font] ?? Array(repeating: nil, count: 0x7F - 0x20)
        var added = false
        for byte in text.utf8 where glyphs[Int(byte - 0x20)] == nil {
            selectForMeasuring(font)
            var e = cairo_text_extents_t()
            cairo.cairo_text_extents(context, String(UnicodeScalar(byte)), &e)
            glyphs[Int(byte - 0x20)] = Glyph(advance: e.x_advance, bearing: e.x_bearing, width: e.width)
            added = true
        }
        if added {
            if asciiGlyphs[font] == nil, asciiGlyphs.count >= 16 { asciiGlyphs.removeAll() }
            asciiGlyphs[font] = glyphs
        }
        lastASCII = (font, glyphs)
        return width(of: text, from: glyphs) ?? 0
    }

    /// Measures with cairo: what `CairoCanvas.drawText` draws.
    struct Measurer: TextMeasuring {
        /// The advance, or the ink's right edge when a glyph reaches past it (an italic's overhang).
        /// `cairo_text_extents`.
        func width(of text: String, font: Font) -> Double {
            guard !text.isEmpty else { return 0 }
            if let w = CairoText.asciiWidth(of: text, font: font) { return w }
            return CairoText.lineWidth(of: text, font: font)
        }

        /// The font's ascent plus descent, and its ascent. `cairo_font_extents`.
        func lineMetrics(font: Font) -> (height: Double, ascent: Double) {
            CairoText.selectForMeasuring(font)
            var e = cairo_font_extents_t()
            cairo.cairo_font_extents(CairoText.context, &e)
            return (e.ascent + e.descent, e.ascent)
        }

        /// False: this is what is drawn.
        var isEstimate: Bool { false }
    }
}

extension X11Backend {
    /// cairo's measurements, as the presenter draws.
    public var textMeasurer: any TextMeasuring { CairoText.Measurer() }
}
