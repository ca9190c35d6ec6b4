@testable import Multihead
import MultiheadInMemory
import Testing

/// Records the text a view draws, and where.
@MainActor
final class TextRecorder: GraphicsContext {
    var texts: [(String, Point)] = []
    func saveState() {}
    func restoreState() {}
    func translate(by offset: Point) {}
    func clip(to rect: Rect) {}
    func beginTransparencyLayer(alpha: Double) {}
    func endTransparencyLayer() {}
    func fill(_ rect: Rect, with color: Color) {}
    func drawText(_ text: String, at point: Point, fontSize: Double, color: Color) { texts.append((text, point)) }
}

@MainActor
@Suite("Labels: fonts, alignment, lines, measurement (the in-memory estimate: 0.6 em a character)")
struct LabelTests {
    let font = Font.systemFont(ofSize: 10)   // 6 points a character, 12.5 a line
    let estimate = EstimatedTextMeasurer()

    @Test("word wrapping, character wrapping, tail truncation and the line limit")
    func layout() {
        func lines(_ text: String, _ width: Double, _ n: Int, _ mode: LineBreakMode) -> [String] {
            TextLayout(text, font: font, width: width, numberOfLines: n, lineBreakMode: mode, measurer: estimate).lines
        }
        #expect(lines("hello world again", 60, 0, .byWordWrapping) == ["hello", "world", "again"])
        #expect(lines("hello world again", 60, 2, .byWordWrapping) == ["hello", "world"])
        #expect(lines("hello world again", 60, 2, .byTruncatingTail) == ["hello", "world aga…"])
        #expect(lines("hello world again", 60, 0, .byTruncatingTail) == ["hello", "world", "again"])
        #expect(lines("abcdefghijkl", 30, 0, .byCharWrapping) == ["abcde", "fghij", "kl"])
        #expect(lines("abcdefghijkl", 30, 0, .byWordWrapping) == ["abcde", "fghij", "kl"])
        #expect(lines("abcdefghijkl", 30, 1, .byTruncatingTail) == ["abcd…"])
        #expect(lines("one\ntwo", .infinity, 0, .byTruncatingTail) == ["one", "two"])
        #expect(lines("one\ntwo\nthree", .infinity, 2, .byTruncatingTail) == ["one", "two…"])
        #expect(lines("one\ntwo\nthree", .infinity, 2, .byWordWrapping) == ["one", "two"])
        #expect(lines("fits", 60, 1, .byTruncatingTail) == ["fits"])
        // One paragraph that fits takes a shorter way: the same lines and widths as the long one.
        for mode in [LineBreakMode.byTruncatingTail, .byWordWrapping, .byCharWrapping] {
            for n in [0, 1, 2] {
                #expect(lines("fits ", 60, n, mode) == (n == 1 && mode == .byTruncatingTail ? ["fits "] : ["fits"]))
                #expect(lines("", 60, n, mode) == [""])
                let one = TextLayout("fits well", font: font, width: 60, numberOfLines: n, lineBreakMode: mode, measurer: estimate)
                #expect(one.lines == ["fits well"] && one.widths == [54])
                #expect(lines("a b\nc", 60, 0, mode) == ["a b", "c"])
            }
        }
    }

    @Test("lines are centred vertically and placed by alignment; the size is the layout's")
    func drawing() throws {
        let (app, _) = try makeApp(extra: false)
        let w = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300), screen: app.mainScreen)
        let label = Label(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        w.addSubview(label)
        label.font = font
        label.text = "abc"
        #expect(label.textMeasurer.isEstimate)
        let ctx = TextRecorder()
        for (alignment, x) in [(TextAlignment.left, 0.0), (.natural, 0), (.center, 91), (.right, 182)] {
            label.textAlignment = alignment
            ctx.texts = []
            label.draw(label.bounds, in: ctx)
            #expect(ctx.texts.map(\.1) == [Point(x: x, y: 44)], "\(alignment)")
        }
        label.numberOfLines = 0
        label.text = "hello world again"
        label.frame.size.width = 60
        #expect(label.intrinsicContentSize == Size(width: 102, height: 13))
        label.sizeToFit()
        #expect(label.frame.size == Size(width: 30, height: 38))
        label.fontSize = 20
        #expect(label.font.pointSize == 20)
        label.fontSize = .nan
        #expect(label.font.pointSize == 20)
        #expect(Font.boldSystemFont(ofSize: 12).isBold && !Font.systemFont(ofSize: 12, weight: .medium).isBold)
        withExtendedLifetime(w) {}
    }
}
