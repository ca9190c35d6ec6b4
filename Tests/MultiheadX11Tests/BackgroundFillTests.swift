@testable import Multihead
import MultiheadInMemory
@testable import MultiheadX11
import Testing

/// A view's background is filled as UIKit's layers fill theirs, with no blended edge (the pixels whose
/// centres it covers), and what an opaque view covers whole is not drawn under it.
@MainActor
@Suite("View backgrounds: hard edges, and nothing drawn under what covers it")
struct BackgroundFillTests {
    func window(_ size: Size) throws -> Window {
        let backend = InMemoryBackend(screens: [ScreenDescription(name: "MAIN", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), isPrimary: true)])
        let app = try Application(backend: backend)
        let w = Window(frame: Rect(origin: .zero, size: size), screen: app.mainScreen)
        w.backgroundColor = .white
        return w
    }

    func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> UInt32 { b.pixels[y * b.width + x] }

    @Test("a view between pixels fills the pixels whose centres it covers, at scale 1 and 2, and two views sharing an edge leave no seam")
    func hardEdges() throws {
        let w = try window(Size(width: 40, height: 10))
        // Centres at 10.5 … 19.5 are inside [10.4, 20.6): columns 10 to 19; at 20.5 too: column 20.
        let a = View(frame: Rect(x: 10.4, y: 0, width: 10.2, height: 10))
        a.backgroundColor = Color(red: 0, green: 0, blue: 1)
        // Shares a's right edge, at 20.6: column 21 on.
        let b = View(frame: Rect(x: 20.6, y: 0, width: 5, height: 10))
        b.backgroundColor = Color(red: 1, green: 0, blue: 0)
        w.addSubview(a)
        w.addSubview(b)
        let one = OffscreenRenderer.render(w, scale: 1, area: nil, storesSolidFills: true)
        let row = (0..<40).map { pixel(one, $0, 5) }
        #expect(row[9] == 0xFFFFFF && row[10] == 0x0000FF && row[20] == 0x0000FF && row[21] == 0xFF0000, "\(row.map { String($0, radix: 16) })")
        // No column blends two colours: every one is white, blue or red.
        #expect(row.allSatisfy { [0xFFFFFF, 0x0000FF, 0xFF0000].contains($0) }, "\(row.map { String($0, radix: 16) })")
        // Through cairo (a translucent window sends the fills there): the same edges.
        let drawn = OffscreenRenderer.render(w, scale: 1, area: nil, storesSolidFills: false)
        #expect(drawn.pixels == one.pixels)
        // Scale 2: 20.8 … 41.2 → columns 21 to 40; b from 41.2: column 41 on.
        let two = OffscreenRenderer.render(w, scale: 2, area: nil, storesSolidFills: true)
        #expect(pixel(two, 20, 5) == 0xFFFFFF && pixel(two, 21, 5) == 0x0000FF && pixel(two, 40, 5) == 0x0000FF && pixel(two, 41, 5) == 0xFF0000)
    }

    @Test("a finite but huge view (3e9, 1e20 points, at 1×, 1.25× and 2×) fills its background over what shows of it, stored and through cairo",
          arguments: [1.0, 1.25, 2])
    func hugeBackground(scale: Double) throws {
        for width in [3e9, 1e20] {
            let w = try window(Size(width: 40, height: 20))
            let v = View(frame: Rect(x: 8, y: 0, width: width, height: 10))
            v.backgroundColor = Color(red: 1, green: 0, blue: 0)
            w.addSubview(v)
            // A translucent one too: cairo fills its pixels (a layer), cut to the surface first.
            let glass = View(frame: Rect(x: -width, y: 10, width: 2 * width, height: 10))
            glass.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 0.5)
            w.addSubview(glass)
            for stored in [true, false] {
                let b = OffscreenRenderer.render(w, scale: scale, area: nil, storesSolidFills: stored)
                let edge = Int(8 * scale)
                #expect(pixel(b, edge - 1, 2) == 0xFFFFFF && pixel(b, edge, 2) == 0xFF0000 && pixel(b, b.width - 1, 2) == 0xFF0000,
                        "\(width) at \(scale)×, stored \(stored)")
                let grey = pixel(b, 0, Int(15 * scale))
                #expect(grey != 0xFFFFFF && pixel(b, b.width - 1, Int(15 * scale)) == grey, "\(width) at \(scale)×, stored \(stored)")
            }
        }
    }

    @Test("a translucent background keeps hard edges (through cairo)")
    func translucentEdges() throws {
        let w = try window(Size(width: 20, height: 4))
        let v = View(frame: Rect(x: 2.5, y: 0, width: 5, height: 4))
        v.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 0.5)
        w.addSubview(v)
        let b = OffscreenRenderer.render(w, scale: 1, area: nil, storesSolidFills: true)
        let row = (0..<20).map { pixel(b, $0, 1) }
        // Centres 2.5 … 6.5 are inside [2.5, 7.5): columns 2 to 6, all the same grey; 1 and 7 white.
        #expect(row[1] == 0xFFFFFF && row[7] == 0xFFFFFF, "\(row.map { String($0, radix: 16) })")
        #expect(Set(row[2...6]).count == 1 && row[2] != 0xFFFFFF, "\(row.map { String($0, radix: 16) })")
    }

    @Test("a frame of a label's damage fills the label's background only, not the window's under it; the pixels are the same")
    func coveredNotDrawn() throws {
        let w = try window(Size(width: 400, height: 200))
        let label = Label(frame: Rect(x: 100, y: 100, width: 200, height: 40))
        label.backgroundColor = Color(red: 1, green: 1, blue: 0.5)
        label.text = "12:00:07"
        w.addSubview(label)
        let whole = OffscreenRenderer.render(w, scale: 1, area: nil, storesSolidFills: true)
        var before = CairoCanvas.storedFills
        let clipsBefore = CairoCanvas.cairoClips
        let damage = OffscreenRenderer.render(w, scale: 1, area: label.frame, storesSolidFills: true)
        // One fill: the label's (the window's, under it, was the second). One clip reaches cairo, the
        // damage's: the label's bounds around it change nothing.
        #expect(CairoCanvas.storedFills - before == 1)
        #expect(CairoCanvas.cairoClips - clipsBefore == 1)
        let differing = (100..<140).reduce(0) { n, y in n + (100..<300).filter { pixel(damage, $0, y) != pixel(whole, $0, y) }.count }
        #expect(differing == 0, "\(differing) of the label's 8000 pixels differ from the whole window's")
        // A damage reaching past the label: the window is drawn, then the label.
        before = CairoCanvas.storedFills
        _ = OffscreenRenderer.render(w, scale: 1, area: Rect(x: 99, y: 100, width: 201, height: 40), storesSolidFills: true)
        #expect(CairoCanvas.storedFills - before == 2)
        // A label that is not opaque covers nothing.
        label.alpha = 0.99
        before = CairoCanvas.storedFills
        _ = OffscreenRenderer.render(w, scale: 1, area: label.frame, storesSolidFills: true)
        #expect(CairoCanvas.storedFills - before == 1)
    }
}
