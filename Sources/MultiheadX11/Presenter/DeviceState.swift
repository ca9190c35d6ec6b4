internal import CCairo
import Multihead

/// Whole pixels of a surface: columns `x0..<x1`, rows `y0..<y1`.
struct PixelBox: Equatable {
    var x0, y0, x1, y1: Int

    var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

    func intersection(_ o: PixelBox) -> PixelBox {
        PixelBox(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }

    /// The smallest box holding both.
    func union(_ o: PixelBox) -> PixelBox {
        PixelBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }

    /// Whether every pixel of `o` is in this box.
    func contains(_ o: PixelBox) -> Bool { x0 <= o.x0 && y0 <= o.y0 && x1 >= o.x1 && y1 >= o.y1 }
}

/// What a canvas's cairo context does to coordinates (a uniform scale, then a translation: all views
/// ask for) and where its clip lies in pixels, when the clip is whole pixels; a pure value, so that tests
/// can check it against cairo.
struct DeviceState: Equatable {
    /// Pixels per unit of user space.
    var scale = 1.0
    /// Where user space's origin is, in pixels.
    var dx = 0.0, dy = 0.0
    /// The clip in pixels; nil once a clip fell between pixels (cairo then blends its edges).
    var clip: PixelBox?

    /// Moves user space's origin by `offset` (`cairo_translate`).
    mutating func translate(by offset: Point) {
        dx += scale * offset.x
        dy += scale * offset.y
    }

    /// Clips to `rect` in user space (`cairo_clip` of a rectangle).
    mutating func clip(to rect: Rect) {
        guard let current = clip, let box = box(of: rect) else { return clip = nil }
        clip = current.intersection(box)
    }

    /// Whether clipping to `rect` leaves the clip as it is: the pixels whose centres lie in `rect` hold
    /// the whole-pixel clip (a view's bounds around a damage inside it; a window's bounds around its own
    /// pixels when its origin falls between two), so by `PixelCentre` it would take none of them away.
    func keepsClip(_ rect: Rect) -> Bool {
        guard let clip, let b = centres(of: rect) else { return false }
        return b.contains(clip)
    }

    /// The pixels a fill of `rect` covers within the clip, when it covers whole pixels only; nil when it
    /// would blend an edge (cairo must draw it).
    func pixels(of rect: Rect) -> PixelBox? {
        guard let clip, let box = box(of: rect) else { return nil }
        return clip.intersection(box)
    }

    /// The pixels whose centres lie in `rect` (`PixelCentre`: the rule input follows too), before the
    /// clip; nil for geometry that is not finite or is out of range.
    func centres(of rect: Rect) -> PixelBox? {
        func edge(_ v: Double) -> Int? { PixelCentre.first(atOrAfter: v) }
        guard let x0 = edge(rect.minX * scale + dx), let y0 = edge(rect.minY * scale + dy),
              let x1 = edge(rect.maxX * scale + dx), let y1 = edge(rect.maxY * scale + dy) else { return nil }
        return PixelBox(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// Whether a background fill of `rect` paints every pixel the clip leaves. The clip must be whole
    /// pixels; `rect` is taken a millionth of a pixel smaller on each side, so that a fill of it made after
    /// other translations (their sums round differently) still covers the clip.
    func backgroundCoversClip(_ rect: Rect) -> Bool {
        let margin = 1e-6 / scale
        guard let clip, !clip.isEmpty, rect.width > 2 * margin, rect.height > 2 * margin,
              let box = centres(of: Rect(x: rect.minX + margin, y: rect.minY + margin,
                                         width: rect.width - 2 * margin, height: rect.height - 2 * margin)) else { return false }
        return box.contains(clip)
    }

    /// `rect` in pixels, if its edges fall on pixel boundaries.
    private func box(of rect: Rect) -> PixelBox? {
        guard rect.width >= 0, rect.height >= 0,
              let x0 = Self.pixel(rect.minX * scale + dx), let y0 = Self.pixel(rect.minY * scale + dy),
              let x1 = Self.pixel(rect.maxX * scale + dx), let y1 = Self.pixel(rect.maxY * scale + dy) else { return nil }
        return PixelBox(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// `v` as a pixel boundary, if it is one (beyond ±2^30 the conversion could trap; cairo handles those).
    private static func pixel(_ v: Double) -> Int? {
        guard v.isFinite, abs(v) < 1_073_741_824 else { return nil }
        // Whole when converting back gives it again (no libm call to round it).
        let i = Int(v)
        return Double(i) == v ? i : nil
    }
}

/// The 32-bit pixel cairo stores for an opaque colour on an RGB24 or ARGB32 surface: each channel made
/// 16-bit as cairo does (`_cairo_color_double_to_short`: `d × 65535 + 0.5` in cairo 1.16, `d × 65536`
/// folded into 0…65535 later), then its high byte (pixman's `color_to_pixel`), with an opaque alpha byte.
@MainActor
enum SolidPixel {
    static func rgb24(_ color: Color) -> UInt32 {
        let up = roundsHalfUp
        return 0xFF00_0000 | channel(color.red, up) << 16 | channel(color.green, up) << 8 | channel(color.blue, up)
    }

    private static func channel(_ d: Double, _ roundsHalfUp: Bool) -> UInt32 {
        let v = d.isNaN ? 0 : min(1, max(0, d))
        guard roundsHalfUp else {
            var i = UInt32(v * 65536)
            i -= i >> 16
            return i >> 8
        }
        return UInt32(v * 65535 + 0.5) >> 8
    }

    /// Which of the two the loaded cairo does, asked of it once: 0.75 is 0xBF one way and 0xC0 the other.
    private static let roundsHalfUp: Bool = {
        guard let s = cairo.cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1) else { return true }
        defer { cairo.cairo_surface_destroy(s) }
        let cr = cairo.cairo_create(s)
        cairo.cairo_set_source_rgb(cr, 0.75, 0, 0)
        cairo.cairo_paint(cr)
        cairo.cairo_destroy(cr)
        cairo.cairo_surface_flush(s)
        guard let data = cairo.cairo_image_surface_get_data(s) else { return true }
        return UnsafeRawPointer(data).load(as: UInt32.self) >> 16 & 0xFF == 0xBF
    }()
}
