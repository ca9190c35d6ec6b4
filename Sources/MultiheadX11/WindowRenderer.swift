internal import CCairo
import Multihead

/// Draws one window into a cairo surface: what the presenter puts on screen, and what the offscreen
/// renderer shows without X.
@MainActor
enum WindowRenderer {
    /// Draws a window's views into an RGB24 surface the window's size: black first (X windows are opaque),
    /// then the views, then software dimming.
    static func render(_ window: Window, into surface: OpaquePointer, brightness: Double) {
        let canvas = CairoCanvas(surface: surface)
        canvas.clearToBlack()
        ViewRenderer.draw(window, in: canvas, brightness: brightness)
        cairo.cairo_surface_flush(surface)
    }
}
