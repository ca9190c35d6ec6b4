@testable import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Testing

/// The box of the pixels in `rect` of a screenshot that differ from `background`; nil when none do.
func inkBox(_ shot: Bitmap, in rect: Rect, background: UInt32) -> Rect? {
    var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
    for y in Int(rect.minY)..<Int(rect.maxY) {
        for x in Int(rect.minX)..<Int(rect.maxX) where shot.pixel(x: x, y: y).map({ $0 != background }) ?? false {
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
    }
    guard maxX >= 0 else { return nil }
    return Rect(x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
}

@MainActor
@Suite("Text and controls drawn on Xvfb", .timeLimit(.minutes(3)))
struct TextOnX11Tests {
    /// A white full-screen window on a fresh server, shown.
    func start() async throws -> (VirtualServer, Application, Window) {
        let server = try await VirtualServer.start()
        let app = try server.makeApplication()
        let w = Window(frame: Rect(x: 0, y: 0, width: 1920, height: 1080), screen: app.mainScreen)
        w.backgroundColor = .white
        w.isHidden = false
        return (server, app, w)
    }

    /// A screenshot once `ready` holds of it, and the white window is on the server: before its first frame
    /// arrives the screen is black, which "some ink here" or "the darkest pixel is black" would take for a
    /// drawing (seen under load).
    func shot(_ server: VirtualServer, _ app: Application, until ready: (Bitmap) -> Bool) async throws -> Bitmap {
        var shot = Bitmap(width: 0, height: 0)
        let ok = await app.run(until: {
            shot = (try? server.screenshot(of: "VIRTUAL-1")) ?? shot
            return shot.width > 0 && shot.pixel(x: shot.width - 1, y: shot.height - 1) == 0xFFFFFF && ready(shot)
        })
        #expect(ok)
        return shot
    }

    @Test("sizeToFit is the ink-and-advance box cairo draws, 8 to 200 points, one line and several")
    func measurement() async throws {
        let (server, app, w) = try await start()
        defer { server.stop() }
        #expect(!(app.backend.textMeasurer.isEstimate))
        let sizes: [Double] = [8, 12, 17, 24, 48, 96, 200]
        var labels: [(Label, Rect)] = []
        var y = 0.0
        for size in sizes {
            let l = Label(frame: Rect(x: 10, y: y, width: 0, height: 0))
            l.font = .systemFont(ofSize: size)
            l.text = "Slide 1"
            l.sizeToFit()
            w.addSubview(l)
            labels.append((l, CairoText.ink(of: "Slide 1", font: l.font)))
            y += l.frame.height + 4
        }
        // Several lines, wrapped within 150 points.
        let multi = Label(frame: Rect(x: 1200, y: 0, width: 150, height: 0))
        multi.numberOfLines = 0
        multi.lineBreakMode = .byWordWrapping
        multi.font = .systemFont(ofSize: 20)
        multi.text = "A title that wraps over three lines"
        multi.sizeToFit()
        w.addSubview(multi)
        let white: UInt32 = 0xFFFFFF
        let last = labels[labels.count - 1].0.frame
        let s = try await shot(server, app) { inkBox($0, in: last, background: white) != nil }
        for (l, ink) in labels {
            let f = l.frame
            let drawn = try #require(inkBox(s, in: f.insetBy(dx: -4, dy: -4), background: white), "\(l.font.pointSize) pt")
            // The pixels are cairo's ink, where the measurement put it (±1 pixel of antialiasing).
            #expect(abs(drawn.minX - (f.minX + ink.minX)) <= 1, "\(l.font.pointSize) pt left")
            #expect(abs(drawn.maxX - (f.minX + ink.maxX)) <= 1, "\(l.font.pointSize) pt right")
            // The measured box holds all of it; its width is the advance, within one pixel of the ink's end
            // plus the last glyph's side bearing (at most a tenth of an em).
            #expect(drawn.minX >= f.minX - 1 && drawn.maxX <= f.maxX + 1 && drawn.minY >= f.minY - 1 && drawn.maxY <= f.maxY + 1)
            #expect(f.maxX - drawn.maxX <= 1 + l.font.pointSize / 10, "\(l.font.pointSize) pt: \(f) vs \(drawn)")
        }
        #expect(multi.frame.height >= 3 * 20 && multi.frame.width <= 150)
        let drawn = try #require(inkBox(s, in: multi.frame.insetBy(dx: -4, dy: -4), background: white))
        #expect(drawn.maxY <= multi.frame.maxY + 1 && drawn.maxX <= multi.frame.maxX + 1)
        // Three lines of ink: the box spans more than two line heights.
        #expect(drawn.height > 2 * multi.font.pointSize)
    }

    @Test("a centred title sits in the middle of its label; a right-aligned one at its right edge")
    func alignment() async throws {
        let (server, app, w) = try await start()
        defer { server.stop() }
        let centred = Label(frame: Rect(x: 100, y: 100, width: 600, height: 200))
        centred.font = .boldSystemFont(ofSize: 48)
        centred.textAlignment = .center
        centred.text = "Slide 1"
        let right = Label(frame: Rect(x: 100, y: 400, width: 600, height: 100))
        right.font = .systemFont(ofSize: 30)
        right.textAlignment = .right
        right.text = "page 3"
        w.addSubview(centred)
        w.addSubview(right)
        let s = try await shot(server, app) { inkBox($0, in: right.frame, background: 0xFFFFFF) != nil }
        let c = try #require(inkBox(s, in: centred.frame, background: 0xFFFFFF))
        let advance = app.backend.textMeasurer.width(of: "Slide 1", font: centred.font)
        let ink = CairoText.ink(of: "Slide 1", font: centred.font)
        let left = 100 + ((600 - advance) / 2).rounded()
        #expect(abs(c.minX - (left + ink.minX)) <= 1)
        // Vertically centred: the line box's middle is the label's.
        let lineTop = 100 + ((200 - app.backend.textMeasurer.lineMetrics(font: centred.font).height) / 2).rounded()
        #expect(abs(c.minY - (lineTop + ink.minY)) <= 1)
        let r = try #require(inkBox(s, in: right.frame, background: 0xFFFFFF))
        let rAdvance = app.backend.textMeasurer.width(of: "page 3", font: right.font)
        #expect(abs(r.minX - (700 - rAdvance.rounded(.up) + CairoText.ink(of: "page 3", font: right.font).minX)) <= 1)
    }

    @Test("a button's title dims while a touch is down on it and comes back when it lifts, then the action runs")
    func buttonHighlight() async throws {
        let (server, app, w) = try await start()
        defer { server.stop() }
        var ran = 0
        let button = Button(frame: Rect(x: 200, y: 200, width: 300, height: 100), primaryAction: Action(title: "Next") { _ in ran += 1 })
        button.titleLabel.font = .boldSystemFont(ofSize: 60)
        button.backgroundColor = .white
        w.addSubview(button)
        let black: UInt32 = 0x000000
        func darkest(_ s: Bitmap) -> UInt32 {
            var d: UInt32 = 0xFF
            for y in 200..<300 { for x in 200..<500 { if let p = s.pixel(x: x, y: y) { d = min(d, p & 0xFF) } } }
            return d
        }
        let normal = try await shot(server, app) { darkest($0) == black }
        #expect(darkest(normal) == 0)
        try server.controlConnection().pointerDown(at: Point(x: 350, y: 250))
        // Black at half opacity on white: 0x7F or 0x80.
        let pressed = try await shot(server, app) { (0x7E...0x81).contains(darkest($0)) }
        #expect(button.isHighlighted)
        #expect((0x7E...0x81).contains(darkest(pressed)))
        try server.controlConnection().pointerUp()
        _ = try await shot(server, app) { darkest($0) == black }
        #expect(await app.run(until: { ran == 1 }))
    }

    @Test("a 1 s fade from red to nothing shows a blend on the way and the background at the end")
    func fade() async throws {
        let (server, app, w) = try await start()
        defer { server.stop() }
        let v = View(frame: Rect(x: 100, y: 100, width: 100, height: 100))
        v.backgroundColor = .red
        w.addSubview(v)
        func pixel() -> UInt32? { try? server.controlConnection().screenshot(of: Rect(x: 150, y: 150, width: 1, height: 1)).pixels.first }
        #expect(await app.run(until: { pixel() == 0xFF0000 }))
        // The animator's clock is the test's: mid-way is a fact, not a moment to catch under load.
        let clock = AnimationClock(at: 5_000, of: app)
        defer { clock.restore() }
        var ended: Bool?
        View.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { v.alpha = 0 }, completion: { ended = $0 })
        #expect(v.alpha == 0)
        clock.now += 0.5
        app.frameClock.frame()
        // Red at half opacity over white: full red, green and blue half way.
        var seen: UInt32?
        #expect(await app.run(until: {
            seen = pixel()
            guard let p = seen else { return false }
            let g = (p >> 8) & 0xFF, b = p & 0xFF
            return p >> 16 == 0xFF && (0x7E...0x81).contains(g) && (0x7E...0x81).contains(b)
        }), "mid-way pixel \(String(seen ?? 0, radix: 16))")
        #expect(ended == nil)
        clock.now += 0.6
        app.frameClock.frame()
        #expect(ended == true)
        #expect(await app.run(until: { pixel() == 0xFFFFFF }))
    }
}
