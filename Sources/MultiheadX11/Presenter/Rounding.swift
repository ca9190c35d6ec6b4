/// `rounded(.down)`, `rounded(.up)` and `rounded()` without libm. x86-64's baseline has no rounding
/// instruction (SSE4.1's `roundsd` is not assumed), so each of those is a call into libm, whose code pages
/// a frame touched for them alone (16 calls a frame of a moving view). The same values as the standard
/// library's for every input, NaN and infinities included; only a zero's sign may differ.
enum Rounding {
    /// Doubles this large or larger are whole already (no fraction bits left).
    private static let whole = 4_503_599_627_370_496.0  // 2^52

    /// The largest whole number not above `v` (`v.rounded(.down)`).
    static func down(_ v: Double) -> Double {
        guard abs(v) < whole else { return v }
        let t = Double(Int64(v))
        return t > v ? t - 1 : t
    }

    /// The smallest whole number not below `v` (`v.rounded(.up)`).
    static func up(_ v: Double) -> Double {
        guard abs(v) < whole else { return v }
        let t = Double(Int64(v))
        return t < v ? t + 1 : t
    }

    /// The nearest whole number, a half away from zero (`v.rounded()`). The fraction `v - t` is exact
    /// below 2^52.
    static func nearest(_ v: Double) -> Double {
        guard abs(v) < whole else { return v }
        let t = Double(Int64(v))
        let fraction = v - t
        if fraction >= 0.5 { return t + 1 }
        if fraction <= -0.5 { return t - 1 }
        return t
    }
}
