@testable import MultiheadX11
import Testing

/// The frame path's rounding without libm gives the standard library's values.
@Suite("Rounding without libm")
struct RoundingTests {
    /// Halves, near-halves, whole numbers, negatives, the edges of 2^52 and of Int64, NaN and infinities.
    static let samples: [Double] = {
        var v: [Double] = [0, -0.0, .nan, .infinity, -.infinity, .ulpOfOne, -.ulpOfOne, .leastNonzeroMagnitude,
                           .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 4_503_599_627_370_496, -4_503_599_627_370_496,
                           4_503_599_627_370_495.5, -4_503_599_627_370_495.5, 9_007_199_254_740_992, 1e18, -1e18, 1e30]
        for i in -2000...2000 {
            let x = Double(i) / 8
            v += [x, x.nextUp, x.nextDown, x + 0.5, (x + 0.5).nextUp, (x + 0.5).nextDown, x * 1_000_003.7]
        }
        return v
    }()

    @Test("down, up and nearest equal rounded(.down), rounded(.up) and rounded() for every sample")
    func sameAsStandardLibrary() {
        var wrong: [String] = []
        for v in Self.samples {
            for (name, ours, theirs) in [("down", Rounding.down(v), v.rounded(.down)), ("up", Rounding.up(v), v.rounded(.up)),
                                         ("nearest", Rounding.nearest(v), v.rounded())]
            where !(ours == theirs || (ours.isNaN && theirs.isNaN)) {
                wrong.append("\(name)(\(v)) = \(ours), not \(theirs)")
            }
        }
        let differing = wrong.count
        #expect(differing == 0, "\(differing) of \(Self.samples.count * 3), first \(wrong.prefix(5))")
    }
}
