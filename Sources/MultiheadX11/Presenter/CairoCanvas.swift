internal import CCairo
import Multihead

/// A `GraphicsContext` over a cairo context: what views draw with, on screen and offscreen alike.
@MainActor
final class CairoCanvas: GraphicsContext {
    // Optional only in type: cairo_create never returns NULL (an error context at worst).
    private let cr: OpaquePointer?

    private let surface: OpaquePointer

    /// Draws on an image surface; the caller keeps the surface alive while the canvas is used. Text picks
    /// its face when drawn (`drawText`), so a frame without text touches no font.
    init(surface: OpaquePointer) {
        self.surface = surface
        cr = cairo.cairo_create(surface)
    }

    isolated deinit { cairo.cairo_destroy(cr) }

    /// Makes what was drawn readable by others (the X server, a PNG writer). `cairo_surface_flush`.
    func flush() { cairo.cairo_surface_flush(surface) }

    /// Draws everything after this `factor` times larger: points to pixels.
    func scale(by factor: Double) {
        guard factor.isFinite, factor > 0, factor != 1 else { return }
        cairo.cairo_scale(cr, factor, factor)
    }

    func saveState() { cairo.cairo_save(cr) }
    func restoreState() { cairo.cairo_restore(cr) }
    func translate(by offset: Point) { cairo.cairo_translate(cr, offset.x, offset.y) }

    func clip(to rect: Rect) {
        cairo.cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
        cairo.cairo_clip(cr)
    }

    func beginTransparencyLayer(alpha: Double) {
        cairo.cairo_push_group(cr)
        layerAlphas.append(alpha)
    }

    func endTransparencyLayer() {
        cairo.cairo_pop_group_to_source(cr)
        cairo.cairo_paint_with_alpha(cr, layerAlphas.popLast() ?? 1)
    }

    private var layerAlphas: [Double] = []

    func fill(_ rect: Rect, with color: Color) {
        cairo.cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo.cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
        cairo.cairo_fill(cr)
    }

    func drawText(_ text: String, at point: Point, fontSize: Double, color: Color) {
        drawText(text, at: point, font: .systemFont(ofSize: fontSize), color: color)
    }

    func drawText(_ text: String, at point: Point, font: Font, color: Color) {
        CairoText.select(font, on: cr)
        var extents = cairo_font_extents_t()
        cairo.cairo_font_extents(cr, &extents)
        cairo.cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo.cairo_move_to(cr, point.x, point.y + extents.ascent)
        cairo.cairo_show_text(cr, text)
    }

    /// Fills everything with opaque black: a window's pixels start black, as X windows have no alpha.
    func clearToBlack() {
        cairo.cairo_save(cr)
        cairo.cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo.cairo_set_source_rgb(cr, 0, 0, 0)
        cairo.cairo_paint(cr)
        cairo.cairo_restore(cr)
    }
}
