@testable import Multihead
import MultiheadInMemory
@testable import MultiheadX11
import Testing

/// An opaque fill of whole pixels is stored straight into the pixels, not drawn by cairo: the pixels must
/// be the ones cairo draws, for every colour, place, scale, clip and layer. Each test draws the same
/// window both ways (`storesSolidFills` false sends every fill through cairo) and compares every pixel.
@MainActor
@Suite("Whole-pixel fills store exactly what cairo draws")
struct SolidFillTests {
    func window(_ size: Size = Size(width: 256, height: 64)) throws -> Window {
        let backend = InMemoryBackend(screens: [ScreenDescription(name: "MAIN", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), isPrimary: true)])
        let app = try Application(backend: backend)
        let w = Window(frame: Rect(origin: .zero, size: size), screen: app.mainScreen)
        w.backgroundColor = .white
        return w
    }

    /// The pixels drawn both ways: how many differ, of how many, and the first that does.
    func differences(_ w: Window, scale: Double = 1, area: Rect? = nil) -> (differing: Int, of: Int, first: String) {
        let storedBefore = CairoCanvas.storedFills
        let stored = OffscreenRenderer.render(w, scale: scale, area: area, storesSolidFills: true)
        let drawn = OffscreenRenderer.render(w, scale: scale, area: area, storesSolidFills: false)
        // Not a comparison of cairo with itself: some fills were stored.
        #expect(CairoCanvas.storedFills > storedBefore)
        let bad = zip(stored.pixels, drawn.pixels).enumerated().filter { $0.element.0 != $0.element.1 }
        let first = bad.first.map {
            "at \($0.offset % drawn.width),\($0.offset / drawn.width): \(String($0.element.0, radix: 16)) for cairo's \(String($0.element.1, radix: 16))"
        } ?? ""
        return (bad.count, drawn.pixels.count, first)
    }

    @Test("every level of every channel, and colours between levels, give cairo's pixel")
    func everyLevel() throws {
        let w = try window(Size(width: 256, height: 5))
        // One column per level; the rows: red, green, blue, a level a third of the way to the next, and
        // level / 256 (where cairo's two roundings differ: 0.75 is 0xBF in one and 0xC0 in the other).
        for level in 0..<256 {
            let v = Double(level) / 255
            let between = min(1, (Double(level) + 1.0 / 3) / 255)
            for (row, color) in [Color(red: v, green: 0, blue: 0), Color(red: 0, green: v, blue: 0),
                                 Color(red: 0, green: 0, blue: v), Color(red: between, green: 1 - between, blue: between / 2),
                                 Color(red: Double(level) / 256, green: 1 - Double(level) / 256, blue: 0.75)].enumerated() {
                let cell = View(frame: Rect(x: Double(level), y: Double(row), width: 1, height: 1))
                cell.backgroundColor = color
                w.addSubview(cell)
            }
        }
        let d = differences(w)
        #expect(d.differing == 0, "\(d.differing) of \(d.of) pixels differ, first \(d.first)")
    }

    @Test("places, clips, layers, dimming and scales: whole pixels stored, the rest drawn by cairo, the same pixels")
    func placesClipsAndScales() throws {
        let w = try window(Size(width: 200, height: 120))
        let outer = View(frame: Rect(x: 10, y: 10, width: 120, height: 90))
        outer.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.6)
        outer.bounds.origin = Point(x: 5, y: -3)
        outer.clipsToBounds = true
        w.addSubview(outer)
        // Whole pixels, half pixels, beyond the clip, a negative origin.
        for (i, frame) in [Rect(x: 0, y: 0, width: 30, height: 20), Rect(x: 40.5, y: 10, width: 20, height: 20.5),
                           Rect(x: 100, y: 60, width: 60, height: 60), Rect(x: -10, y: -10, width: 25, height: 25)].enumerated() {
            let v = View(frame: frame)
            v.backgroundColor = Color(red: Double(i) / 4, green: 1 - Double(i) / 4, blue: 0.5)
            outer.addSubview(v)
        }
        // A clip that falls between pixels, with a whole-pixel fill inside it.
        let halfClip = View(frame: Rect(x: 140.5, y: 10, width: 40, height: 40))
        halfClip.clipsToBounds = true
        halfClip.backgroundColor = .red
        let inner = View(frame: Rect(x: 0, y: 0, width: 30, height: 30))
        inner.backgroundColor = .blue
        halfClip.addSubview(inner)
        w.addSubview(halfClip)
        // A translucent view: its subtree is drawn in a layer, through cairo.
        let faded = View(frame: Rect(x: 140, y: 60, width: 50, height: 50))
        faded.alpha = 0.5
        faded.backgroundColor = .green
        let solid = View(frame: Rect(x: 5, y: 5, width: 10, height: 10))
        solid.backgroundColor = .black
        faded.addSubview(solid)
        w.addSubview(faded)
        for scale in [1.0, 2, 1.5] {
            let d = differences(w, scale: scale)
            #expect(d.differing == 0, "scale \(scale): \(d.differing) of \(d.of) pixels differ, first \(d.first)")
        }
        // Only the damage drawn (the presenter's frames), and a dimmed screen's black veil.
        let d = differences(w, area: Rect(x: 35, y: 15, width: 50, height: 40))
        #expect(d.differing == 0, "damage only: \(d.differing) of \(d.of) pixels differ, first \(d.first)")
        w.backgroundColor = Color(white: 0.5, alpha: 0.5)
        let translucent = differences(w)
        #expect(translucent.differing == 0, "translucent window: \(translucent.differing) of \(translucent.of) pixels differ, first \(translucent.first)")
    }

    @Test("the device state follows cairo's: translations, scales, whole-pixel clips; a fractional clip ends the shortcut")
    func deviceState() {
        var d = DeviceState(clip: PixelBox(x0: 0, y0: 0, x1: 100, y1: 100))
        d.scale = 2
        d.translate(by: Point(x: 5, y: 10))
        #expect(d.pixels(of: Rect(x: 0, y: 0, width: 10, height: 10)) == PixelBox(x0: 10, y0: 20, x1: 30, y1: 40))
        d.clip(to: Rect(x: 0, y: 0, width: 5, height: 5))
        #expect(d.pixels(of: Rect(x: -50, y: -50, width: 500, height: 500)) == PixelBox(x0: 10, y0: 20, x1: 20, y1: 30))
        #expect(d.pixels(of: Rect(x: 0.25, y: 0, width: 1, height: 1)) == nil)
        d.clip(to: Rect(x: 0.25, y: 0, width: 5, height: 5))
        #expect(d.pixels(of: Rect(x: 0, y: 0, width: 1, height: 1)) == nil)
        #expect(DeviceState(clip: PixelBox(x0: 0, y0: 0, x1: 10, y1: 10)).pixels(of: Rect(x: .infinity, y: 0, width: 1, height: 1)) == nil)
    }
}
