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
    package static func ink(of text: String, font: Font) -> Rect {
        selectForMeasuring(font)
        var t = cairo_text_extents_t()
        cairo.cairo_text_extents(context, text, &t)
        var f = cairo_font_extents_t()
        cairo.cairo_font_extents(context, &f)
        return Rect(x: t.x_bearing, y: f.ascent + t.y_bearing, width: t.width, height: t.height)
    }

    /// Measures with cairo: what `CairoCanvas.drawText` draws.
    struct Measurer: TextMeasuring {
        /// The advance, or the ink's right edge when a glyph reaches past it (an italic's overhang).
        /// `cairo_text_extents`.
        func width(of text: String, font: Font) -> Double {
            guard !text.isEmpty else { return 0 }
            CairoText.selectForMeasuring(font)
            var e = cairo_text_extents_t()
            cairo.cairo_text_extents(CairoText.context, text, &e)
            return max(e.x_advance, e.x_bearing + e.width)
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
