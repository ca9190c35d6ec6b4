@testable import Multihead
@testable import MultiheadX11
import Testing

/// A line of printable ASCII is measured from its characters' metrics, each taken from cairo once: the
/// width must be cairo's own for the whole line, to the last bit, or labels would wrap and truncate
/// differently from what is drawn.
@MainActor
@Suite("Text measured from cached glyphs, as cairo measures the line")
struct CairoTextTests {
    static let fonts: [Font] = [.systemFont(ofSize: 17), .systemFont(ofSize: 12.5), .boldSystemFont(ofSize: 30),
                                .systemFont(ofSize: 9), .systemFont(ofSize: 200)]

    @Test("every character alone, and 2,000 lines of up to 40 characters, in five fonts: cairo's widths exactly")
    func sameAsCairo() {
        // A fixed generator: the same lines every run.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        var lines = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }
        lines += ["12:00:59", "WWWW", "AV To", "fi fl", " leading", "trailing ", "   ", "j/y_g|", "~`@#"]
        for _ in 0..<2000 {
            lines.append(String((0..<(1 + next(40))).map { _ in Character(UnicodeScalar(UInt8(0x20 + next(95)))) }))
        }
        var differing: [String] = []
        for font in Self.fonts {
            for line in lines where CairoText.asciiWidth(of: line, font: font) != CairoText.lineWidth(of: line, font: font) {
                differing.append("\(font.pointSize) \"\(line)\"")
            }
        }
        #expect(differing.count == 0, "\(differing.prefix(5))")
        // A size that animates makes a font a frame: the table keeps 16 and starts again, still exact.
        let sizes = (1...40).map { Font.systemFont(ofSize: 10 + Double($0) / 4) }
        #expect(sizes.filter { CairoText.asciiWidth(of: "12:00:59", font: $0) != CairoText.lineWidth(of: "12:00:59", font: $0) }.isEmpty)
    }

    @Test("text beyond printable ASCII is measured by cairo whole")
    func otherTextGoesToCairo() {
        for line in ["café", "tab\there", "line\n", "Ω", "👋 hi"] {
            #expect(CairoText.asciiWidth(of: line, font: .systemFont(ofSize: 17)) == nil, "\(line)")
        }
        let measurer = CairoText.Measurer()
        #expect(measurer.width(of: "café", font: .systemFont(ofSize: 17)) == CairoText.lineWidth(of: "café", font: .systemFont(ofSize: 17)))
    }
}
