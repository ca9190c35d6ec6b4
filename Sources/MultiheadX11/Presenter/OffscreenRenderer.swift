internal import CCairo
import Multihead

/// Renders the model without X: one window into a cairo surface, or a whole screen as X would show it.
@MainActor
public enum OffscreenRenderer {
    /// A window's pixels alone, at its size clamped to 1…32767 (and to 16384² for memory's sake).
    public static func render(_ window: Window) -> Bitmap {
        render(window, scale: 1, area: nil, storesSolidFills: true)
    }

    /// A window at `scale` pixels per point, drawn only within `area` (pixels) when given; with
    /// `storesSolidFills` false every fill goes through cairo (tests compare the two ways). `placed` is
    /// the X window's geometry and the window's origin in it (`WindowGeometry`), when it is placed as X
    /// places it.
    static func render(_ window: Window, scale: Double, area: Rect?, storesSolidFills: Bool,
                       placed: (geometry: WindowGeometry, origin: Point)? = nil) -> Bitmap {
        let w = min(16384, placed?.geometry.w ?? Int(min(16384, max(1, (window.bounds.width * scale).rounded()))))
        let h = min(16384, placed?.geometry.h ?? Int(min(16384, max(1, (window.bounds.height * scale).rounded()))))
        var bitmap = Bitmap(width: w, height: h)
        bitmap.pixels.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                  let s = cairo.cairo_image_surface_create_for_data(base, CAIRO_FORMAT_RGB24, Int32(w), Int32(h), Int32(w * 4))
            else { return }
            defer { cairo.cairo_surface_destroy(s) }
            let canvas = CairoCanvas(surface: s, storesSolidFills: storesSolidFills)
            WindowRenderer.render(window, on: canvas, brightness: window.screen.softwareBrightness, scale: scale,
                                  origin: placed?.origin ?? .zero, area: area.map { PixelRect(covering: $0, scale: 1) })
        }
        bitmap.pixels.withUnsafeMutableBufferPointer { p in
            for i in p.indices { p[i] &= 0x00FF_FFFF }
        }
        return bitmap
    }

    /// A screen as X shows it, from the model alone: black, then every visible window on that screen, back
    /// to front, each opaque over the ones behind it.
    public static func render(_ screen: Screen) -> Bitmap {
        let sw = Int(screen.frame.width), sh = Int(screen.frame.height)
        var result = Bitmap(width: sw, height: sh)
        guard let app = screen.application else { return result }
        for window in app.windows where !window.isHidden && window.screen === screen {
            // Where X has it: the pixels whose centres it covers, its views drawn that fraction in.
            let g = WindowGeometry(window.frame, rootWidth: 32767, rootHeight: 32767)
            let pixels = render(window, scale: 1, area: nil, storesSolidFills: true, placed: (g, g.origin(of: window.frame)))
            let ox = Int(g.x), oy = Int(g.y)
            // The part of the window inside the screen, copied a row at a time.
            let x0 = max(0, ox), x1 = min(sw, ox + pixels.width)
            guard x1 > x0 else { continue }
            result.pixels.withUnsafeMutableBufferPointer { dst in
                pixels.pixels.withUnsafeBufferPointer { src in
                    for ty in max(0, oy)..<min(sh, oy + pixels.height) {
                        guard let d = dst.baseAddress, let s = src.baseAddress else { return }
                        (d + ty * sw + x0).update(from: s + (ty - oy) * pixels.width + (x0 - ox), count: x1 - x0)
                    }
                }
            }
        }
        return result
    }
}
