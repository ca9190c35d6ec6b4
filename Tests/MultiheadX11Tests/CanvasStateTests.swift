@testable import Multihead
import MultiheadInMemory
@testable import MultiheadX11
import Testing

/// The canvas gives cairo its saves, moves and clips only when cairo draws (stored fills need none):
/// whatever order they come in, what cairo draws lands where the state says. Each view here mixes the
/// two kinds of fill (opaque: stored; translucent: cairo) around saves that cairo had or never had.
@MainActor
@Suite("The canvas's state reaches cairo when cairo draws")
struct CanvasStateTests {
    /// Draws `body` after its white background.
    final class Drawing: View {
        var body: (any GraphicsContext) -> Void = { _ in }
        override func draw(_ rect: Rect, in context: any GraphicsContext) { body(context) }
    }

    func render(_ body: @escaping (any GraphicsContext) -> Void) throws -> Bitmap {
        let backend = InMemoryBackend(screens: [ScreenDescription(name: "MAIN", frame: Rect(x: 0, y: 0, width: 800, height: 600), isPrimary: true)])
        let app = try Application(backend: backend)
        let w = Window(frame: Rect(x: 0, y: 0, width: 40, height: 40), screen: app.mainScreen)
        w.backgroundColor = .white
        let v = Drawing(frame: w.bounds)
        v.body = body
        w.addSubview(v)
        return OffscreenRenderer.render(w)
    }

    /// Half-transparent black over white: what cairo draws where a translucent fill lands.
    let grey: UInt32 = 0x7F7F7F
    let half = Color(red: 0, green: 0, blue: 0, alpha: 0.5)

    func isGrey(_ p: UInt32?) -> Bool { p.map { abs(Int($0 & 0xFF) - 0x7F) <= 1 } ?? false }

    @Test("a save and clip cairo never had, then restored: cairo's next fill is not clipped")
    func restoredBeforeCairoDrew() throws {
        let b = try render { c in
            c.saveState()
            c.clip(to: Rect(x: 0, y: 0, width: 5, height: 5))
            c.fill(Rect(x: 0, y: 0, width: 5, height: 5), with: .red)   // stored
            c.restoreState()
            c.fill(Rect(x: 10, y: 10, width: 20, height: 20), with: self.half)
        }
        #expect(b.pixel(x: 2, y: 2) == 0xFF0000)
        #expect(isGrey(b.pixel(x: 20, y: 20)), "\(String(b.pixel(x: 20, y: 20) ?? 0, radix: 16))")
    }

    @Test("a save cairo had (it drew inside), then restored: its clip and move end for cairo too")
    func restoredAfterCairoDrew() throws {
        let b = try render { c in
            c.saveState()
            c.translate(by: Point(x: 30, y: 30))
            c.clip(to: Rect(x: 0, y: 0, width: 5, height: 5))
            c.fill(Rect(x: 0, y: 0, width: 10, height: 10), with: self.half)   // cairo: clipped, moved
            c.restoreState()
            c.fill(Rect(x: 0, y: 0, width: 10, height: 10), with: self.half)   // cairo: neither
        }
        #expect(isGrey(b.pixel(x: 32, y: 32)))
        #expect(b.pixel(x: 37, y: 37) == 0xFFFFFF)
        #expect(isGrey(b.pixel(x: 5, y: 5)))
    }

    @Test("a save cairo had, a nested one it never had: restoring the inner keeps the outer for cairo")
    func nestedSaves() throws {
        let b = try render { c in
            c.saveState()
            c.clip(to: Rect(x: 0, y: 0, width: 20, height: 20))
            c.fill(Rect(x: 0, y: 0, width: 1, height: 1), with: self.half)   // cairo has the outer save now
            c.saveState()
            c.translate(by: Point(x: 100, y: 100))
            c.restoreState()
            c.fill(Rect(x: 10, y: 10, width: 20, height: 20), with: self.half)  // clipped to 20×20, not moved
            c.restoreState()
        }
        #expect(isGrey(b.pixel(x: 15, y: 15)))
        #expect(b.pixel(x: 25, y: 25) == 0xFFFFFF)
    }
}
