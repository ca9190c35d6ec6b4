internal import CCairo
import Multihead

/// Draws one window into a cairo surface: what the presenter puts on screen, and what the offscreen
/// renderer shows without X.
@MainActor
enum WindowRenderer {
    /// Draws a window's views into an RGB24 surface the window's size in pixels: black first (X windows are
    /// opaque) unless the window's background is, then the views at `scale` pixels per point, then software dimming.
    /// With `area`, only those pixels are drawn (the rest of the surface keeps what it had).
    static func render(_ window: Window, into surface: OpaquePointer, brightness: Double, scale: Double = 1,
                       area: PixelRect? = nil) {
        render(window, on: CairoCanvas(surface: surface), brightness: brightness, scale: scale, area: area)
    }

    /// The same on a canvas kept from frame to frame (a window's pixel buffer keeps one): its state is
    /// saved and restored around the frame. `origin` is where the window's coordinates start, in pixels
    /// (`WindowGeometry.origin`: a fraction when its desktop origin falls between pixels).
    static func render(_ window: Window, on canvas: CairoCanvas, brightness: Double, scale: Double = 1, origin: Point = .zero,
                       area: PixelRect? = nil) {
        canvas.saveState()
        if let area {
            canvas.clip(to: Rect(x: Double(area.x), y: Double(area.y), width: Double(area.width), height: Double(area.height)))
        }
        if origin != .zero { canvas.translate(by: origin) }
        canvas.scale(by: scale)
        // An opaque background, or an opaque subview over all that is drawn (a GL view filling its
        // window), covers everything anyway: one fill of the pixels, not two. (The black is painted
        // whatever the scale.)
        if window.presentationBackgroundColor?.alpha != 1, !ViewRenderer.subviewsCoverClip(of: window, in: canvas) {
            canvas.clearToBlack()
        }
        ViewRenderer.draw(window, in: canvas, brightness: brightness)
        canvas.restoreState()
        canvas.flush()
    }
}
