import Multihead

/// An X window's place and size, as X's 16-bit fields can hold them.
struct WindowGeometry: Equatable {
    var x: Int32, y: Int32, w: Int, h: Int

    /// A desktop rectangle rounded, its origin clamped to X's signed 16 bits and its size to
    /// 1…(the root's size, at most 32767): nothing wraps, and a non-finite value takes the lower bound.
    init(_ r: Rect, rootWidth: Int32, rootHeight: Int32) {
        let maxW = Double(min(32767, max(1, rootWidth))), maxH = Double(min(32767, max(1, rootHeight)))
        func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double { v.isFinite ? min(hi, max(lo, Rounding.nearest(v))) : lo }
        x = Int32(clamp(r.minX, -32768, 32767))
        y = Int32(clamp(r.minY, -32768, 32767))
        w = Int(clamp(r.width, 1, maxW))
        h = Int(clamp(r.height, 1, maxH))
    }
}
