internal import CCairo
import Multihead

/// A `GraphicsContext` over a cairo context: what views draw with, on screen and offscreen alike.
@MainActor
final class CairoCanvas: GraphicsContext {
    private let cr: OpaquePointer

    /// Draws on an image surface; the caller keeps the surface alive while the canvas is used.
    init(surface: OpaquePointer) {
        cr = cairo_create(surface)
        // Text is drawn with the toy API and the same options everywhere, so that on-screen and offscreen
        // pixels are the same.
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
    }

    isolated deinit { cairo_destroy(cr) }

    func saveState() { cairo_save(cr) }
    func restoreState() { cairo_restore(cr) }
    func translate(by offset: Point) { cairo_translate(cr, offset.x, offset.y) }

    func clip(to rect: Rect) {
        cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
        cairo_clip(cr)
    }

    func beginTransparencyLayer(alpha: Double) {
        cairo_push_group(cr)
        layerAlphas.append(alpha)
    }

    func endTransparencyLayer() {
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, layerAlphas.popLast() ?? 1)
    }

    private var layerAlphas: [Double] = []

    func fill(_ rect: Rect, with color: Color) {
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
        cairo_fill(cr)
    }

    func drawText(_ text: String, at point: Point, fontSize: Double, color: Color) {
        cairo_set_font_size(cr, fontSize)
        var extents = cairo_font_extents_t()
        cairo_font_extents(cr, &extents)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo_move_to(cr, point.x, point.y + extents.ascent)
        cairo_show_text(cr, text)
    }

    /// Fills everything with opaque black: a window's pixels start black, as X windows have no alpha.
    func clearToBlack() {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
