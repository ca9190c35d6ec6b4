import Multihead

/// An X window's place and size, as X's 16-bit fields can hold them.
struct WindowGeometry: Equatable {
    var x: Int32, y: Int32, w: Int, h: Int

    /// The pixels whose centres a desktop rectangle covers (`PixelCentre`: where input finds the window,
    /// as it finds its views), its origin clamped to X's signed 16 bits and its size to 1…(the root's size,
    /// at most 32767): nothing wraps, and a NaN takes the lower bound.
    init(_ r: Rect, rootWidth: Int32, rootHeight: Int32) {
        let maxW = Int(min(32767, max(1, rootWidth))), maxH = Int(min(32767, max(1, rootHeight)))
        let x0 = PixelCentre.first(atOrAfter: r.minX), y0 = PixelCentre.first(atOrAfter: r.minY)
        func size(_ from: Int?, _ to: Double, _ hi: Int) -> Int {
            guard let from, let end = PixelCentre.first(atOrAfter: to) else { return 1 }
            return min(hi, max(1, end - from))
        }
        x = Int32(min(32767, max(-32768, x0 ?? -32768)))
        y = Int32(min(32767, max(-32768, y0 ?? -32768)))
        w = size(x0, r.maxX, maxW)
        h = size(y0, r.maxY, maxH)
    }

    /// Where the window's own coordinates start in its X window, in pixels: its desktop origin's
    /// fraction of a pixel the X window could not take (within ±½). Its views are drawn that far in, so
    /// that each pixel shows the view that covers its centre on the desktop, as input finds it.
    func origin(of r: Rect) -> Point {
        func offset(_ v: Double, _ start: Int32) -> Double {
            let d = v - Double(start)
            return d.isFinite && abs(d) < 1 ? d : 0
        }
        return Point(x: offset(r.minX, x), y: offset(r.minY, y))
    }
}
