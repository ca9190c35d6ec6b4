/// Which view a pixel belongs to, one rule for drawing and for input: the view that covers the pixel's
/// centre. Pixel `i` (a column or a row) spans `i ..< i + 1` and stands at `i + ½`: a view whose edges
/// fall at `a` and `b` (in pixels, at any fraction) paints the pixels whose centres lie in `a ..< b`,
/// and a press on pixel `i` lands at `i + ½` (in points, `(i + ½) / scale`), inside that same view.
/// `CairoCanvas` (through `DeviceState.centres`) draws by it, `WindowGeometry` places X windows by it,
/// and `X11Backend`'s input reports by it.
enum PixelCentre {
    /// Where input on pixel `index` lands, in desktop coordinates: the pixel's centre.
    static func of(_ index: Int) -> Double { Double(index) + 0.5 }

    /// The first pixel whose centre (`of`) is at or after `edge`: edges at `a` and `b` cover the pixels
    /// `first(atOrAfter: a) ..< first(atOrAfter: b)`. An edge beyond ±2^30 pixels (or infinite) gives
    /// ±2^30, past every surface, which a clip then cuts: a huge view's background still covers what
    /// shows of it (cairo's 24.8 fixed point would wrap its rectangle). Nil for NaN only.
    static func first(atOrAfter edge: Double) -> Int? {
        let far = 1_073_741_824
        guard !edge.isNaN else { return nil }
        guard abs(edge) < Double(far) else { return edge > 0 ? far : -far }
        var first = Int(Rounding.up(edge - 0.5))
        // `edge - 0.5` rounds for some edges (-0.5.nextUp gives -1): the centres themselves, exact, decide.
        if of(first) < edge { first += 1 } else if of(first - 1) >= edge { first -= 1 }
        return first
    }
}
