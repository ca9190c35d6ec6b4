@testable import Multihead
import Testing

/// Layout work grows with the text, not with its square: a counting measurer says how many characters
/// each layout measured, whatever the machine's speed.
@MainActor
@Suite("Text layout linear in the text", .timeLimit(.minutes(1)))
struct TextLayoutScaleTests {
    /// The estimate's widths (0.6 em a character), counting what it measured.
    final class CountingMeasurer: TextMeasuring {
        var measuredCharacters = 0
        func width(of text: String, font: Font) -> Double {
            let n = text.count
            measuredCharacters += n
            return Double(n) * font.pointSize * 0.6
        }
        func lineMetrics(font: Font) -> (height: Double, ascent: Double) { (font.pointSize * 1.25, font.pointSize * 0.95) }
        var isEstimate: Bool { true }
    }

    let font = Font(pointSize: 10)

    @Test("a megabyte in a one-line truncating label: one line ending in …, within the width, measured in linear work")
    func megabyteOneLine() {
        let text = String(repeating: "abcdefghij ", count: 100_000)
        let m = CountingMeasurer()
        let layout = TextLayout(text, font: font, width: 200, numberOfLines: 1, lineBreakMode: .byTruncatingTail, measurer: m)
        #expect(layout.lines.count == 1)
        #expect(layout.lines[0].hasSuffix("…") && layout.widths[0] <= 200)
        // The longest prefix that fits with its "…": one more character would not.
        let kept = layout.lines[0].dropLast()
        #expect(m.width(of: String(text.prefix(kept.count + 1)) + "…", font: font) > 200)
        #expect(m.measuredCharacters <= 4 * text.count, "\(m.measuredCharacters) characters measured for \(text.count)")
    }

    @Test("200,000 characters of words wrapped: every line fits, no word is lost, linear work",
          arguments: [LineBreakMode.byWordWrapping, .byCharWrapping])
    func wrappedWords(mode: LineBreakMode) {
        let text = (0..<20_000).map { "w\($0 % 997)" }.joined(separator: " ")
        let m = CountingMeasurer()
        let layout = TextLayout(text, font: font, width: 200, numberOfLines: 0, lineBreakMode: mode, measurer: m)
        #expect(layout.widths.allSatisfy { $0 <= 200 })
        if mode == .byWordWrapping {
            #expect(layout.lines.joined(separator: " ") == text)
        } else {
            #expect(layout.lines.joined().filter { $0 != " " } == text.filter { $0 != " " })
        }
        #expect(m.measuredCharacters <= 40 * text.count, "\(m.measuredCharacters) characters measured for \(text.count)")
    }

    @Test("one unbroken word of 200,000 characters wrapped: full lines of it, linear work")
    func unbrokenWord() {
        let text = String(repeating: "x", count: 200_000)
        let m = CountingMeasurer()
        let layout = TextLayout(text, font: font, width: 200, numberOfLines: 0, lineBreakMode: .byWordWrapping, measurer: m)
        // 0.6 × 10 pt a character: 33 to a 200-point line.
        #expect(layout.lines.dropLast().allSatisfy { $0.count == 33 })
        #expect(layout.lines.joined() == text)
        #expect(m.measuredCharacters <= 40 * text.count, "\(m.measuredCharacters) characters measured for \(text.count)")
    }

    @Test("a label's sizeThatFits and draw-time layout of a megabyte line return, one line high")
    func labelWithMegabyte() {
        let label = Label(frame: Rect(x: 0, y: 0, width: 200, height: 20))
        label.text = String(repeating: "é", count: 1_000_000)
        let size = label.sizeThatFits(Size(width: 200, height: 1000))
        #expect(size.width <= 200 && size.height > 0 && size.height < 40)
        #expect(label.layout(width: 200).lines.count == 1)
    }
}
