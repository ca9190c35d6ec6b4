import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Testing

/// One rule for which view a pixel belongs to: the one covering its centre, for drawing and input alike.
@MainActor
@Suite("A pixel belongs to the view that covers its centre")
struct PixelCentreTests {
    /// Shows `w` with `a` (red) and then `b` (blue) in it.
    func show(_ w: Window, red a: View, blue b: View) {
        a.backgroundColor = Color(red: 1, green: 0, blue: 0)
        b.backgroundColor = Color(red: 0, green: 0, blue: 1)
        w.addSubview(a)
        w.addSubview(b)
        w.isHidden = false
    }

    /// Two views meeting at `edge` points, at `scale`: which one paints pixel `i` (the canvas's rule) and
    /// which one a press on it reaches (input's centre in points, hit tested as the model does).
    @Test("the painted view and the pressed view are the same for every pixel near an edge, at fractional scales",
          arguments: [1.0, 1.25, 1.5, 1.75, 2, 2.5, 3])
    func paintedIsPressed(scale: Double) {
        let device = DeviceState(scale: scale)
        for tenth in 0...200 {
            let edge = Double(tenth) / 10
            let a = Rect(x: 0, y: 0, width: edge, height: 1), b = Rect(x: edge, y: 0, width: 50, height: 1)
            guard let boxA = device.centres(of: a), let boxB = device.centres(of: b) else {
                Issue.record("no pixels for an edge at \(edge)")
                continue
            }
            // Between them, the two boxes hold each pixel once.
            #expect(boxA.x1 == boxB.x0, "edge \(edge) at \(scale)")
            for i in 0..<Int(edge * scale) + 3 {
                let point = Point(x: PixelCentre.of(i) / scale, y: 0.5)
                let pressed = a.contains(point) ? "A" : b.contains(point) ? "B" : "-"
                let painted = (boxA.x0..<boxA.x1).contains(i) ? "A" : (boxB.x0..<boxB.x1).contains(i) ? "B" : "-"
                #expect(pressed == painted, "pixel \(i), edge \(edge) pt at \(scale)×")
            }
        }
    }

    @Test("first(atOrAfter:) is the first pixel whose centre is at or after an edge; ±2^30 past that, nil for NaN")
    func firstPixel() {
        for e in stride(from: -40.0, through: 40, by: 0.125) {
            for edge in [e, e.nextUp, e.nextDown] {
                guard let first = PixelCentre.first(atOrAfter: edge) else {
                    Issue.record("nil for \(edge)")
                    continue
                }
                #expect(PixelCentre.of(first) >= edge && PixelCentre.of(first - 1) < edge, "edge \(edge): \(first)")
            }
        }
        #expect(PixelCentre.first(atOrAfter: 12.5) == 12 && PixelCentre.first(atOrAfter: 17.5) == 17)
        #expect(PixelCentre.first(atOrAfter: .nan) == nil)
        let far = 1 << 30
        #expect(PixelCentre.first(atOrAfter: 1e10) == far && PixelCentre.first(atOrAfter: .infinity) == far)
        #expect(PixelCentre.first(atOrAfter: -1e20) == -far && PixelCentre.first(atOrAfter: -.infinity) == -far)
    }

    @Test("a window's X rectangle is the pixels whose centres it covers; its views start that fraction in; nothing wraps")
    func windowGeometry() {
        let r = Rect(x: 12.5, y: 11.25, width: 50, height: 25)
        func xywh(_ g: WindowGeometry) -> [Int] { [Int(g.x), Int(g.y), g.w, g.h] }
        let g = WindowGeometry(r, rootWidth: 800, rootHeight: 600)
        // Columns 12…61 (centres 12.5…61.5), rows 11…35 (11.5…35.5).
        #expect(xywh(g) == [12, 11, 50, 25])
        #expect(g.origin(of: r) == Point(x: 0.5, y: 0.25))
        let negative = Rect(x: -12.5, y: -0.75, width: 10, height: 10)
        let n = WindowGeometry(negative, rootWidth: 800, rootHeight: 600)
        #expect(xywh(n) == [-13, -1, 10, 10] && n.origin(of: negative) == Point(x: 0.5, y: 0.25))
        let huge = WindowGeometry(Rect(x: -1e20, y: 5, width: 3e20, height: 1e-3), rootWidth: 800, rootHeight: 600)
        #expect(xywh(huge) == [-32768, 5, 800, 1])
        let nan = WindowGeometry(Rect(x: .nan, y: 0, width: 10, height: 10), rootWidth: 800, rootHeight: 600)
        #expect(nan.x == -32768 && nan.w == 1)
    }

    @Test("on a real X server at 1.25× and 1.75×: each pixel around a window's edge and two views' edge is tapped as the view whose colour it shows",
          arguments: [1.25, 1.75], [8.0, 9, 10])
    func tapsFollowPixels(scale: Double, windowX: Double) async throws {
        let server = try await VirtualServer.start(monitors: [.init("EDGE", "800x600+0+0", primary: true)])
        defer { server.stop() }
        let backend = X11Backend(display: server.display, screenScaleFactors: ["EDGE": scale])
        let app = try Application(backend: backend)
        let screen = app.mainScreen
        #expect(screen.scale == scale)
        // Behind: C, green. In front at x = 8 points, a window on a whole pixel at both scales; at 9 between
        // two (11.25 and 15.75 pixels); at 10 on a pixel's centre (12.5, 17.5). A and B meet at 10 points in it.
        let back = solidWindow(app, screen, Rect(x: 0, y: 0, width: 100, height: 60), .white)
        let c = TouchRecorder(frame: back.bounds)
        c.backgroundColor = Color(red: 0, green: 1, blue: 0)
        back.addSubview(c)
        back.isHidden = false
        let w = solidWindow(app, screen, Rect(x: windowX, y: 8, width: 40, height: 20), .white)
        let a = TouchRecorder(frame: Rect(x: 0, y: 0, width: 10, height: 20))
        let b = TouchRecorder(frame: Rect(x: 10, y: 0, width: 10, height: 20))
        show(w, red: a, blue: b)
        let control = try server.controlConnection()
        defer { control.close() }
        let views: [(UInt32, String, TouchRecorder)] = [(0x00FF00, "C", c), (0xFF0000, "A", a), (0x0000FF, "B", b)]
        // Then moved by a fifth of a point (at 1.25× from 11.25 pixels to 11: the same X window, but pixel 23
        // now has B's edge at its centre).
        for x in [windowX, windowX - 0.2] {
            w.frame.origin.x = x
            // A barrier: the server has the pixels of this place before they are read.
            try app.synchronize()
            // Bands of 7 desktop pixels around the window's left edge and around A and B's.
            let y = Int(w.frameOnDesktop.midY)
            for edge in [w.frameOnDesktop.minX, w.frameOnDesktop.minX + 10 * scale] {
                let band = Rect(x: edge.rounded(.down) - 3, y: Double(y), width: 7, height: 1)
                var shot: Bitmap?
                #expect(await app.run(until: {
                    shot = try? control.screenshot(of: band)
                    return shot.map { s in (0..<7).allSatisfy { i in views.contains { $0.0 == s.pixel(x: i, y: 0) } } } ?? false
                }))
                let row = try #require(shot)
                var seen: Set<String> = []
                for i in 0..<7 {
                    let painted = views.first { $0.0 == row.pixel(x: i, y: 0) }?.1 ?? "-"
                    seen.insert(painted)
                    let before = views.map(\.2.log.count)
                    try server.tap(at: Point(x: band.minX + Double(i), y: Double(y)))
                    #expect(await app.run(until: { views.map(\.2.log.count).reduce(0, +) >= before.reduce(0, +) + 2 }))
                    let pressed = zip(views, before).first { $0.0.2.log.count > $0.1 }?.0.1 ?? "-"
                    #expect(pressed == painted, "desktop pixel \(Int(band.minX) + i) at \(scale)×, window at \(x): painted \(painted), pressed \(pressed)")
                }
                #expect(seen.count == 2, "\(seen) around \(edge), window at \(x): \((0..<7).map { String(row.pixel(x: $0, y: 0) ?? 0, radix: 16) })")
            }
        }
    }

    @Test("the offscreen render of a screen places a window between pixels as X does: the same pixels")
    func offscreenPlacesAsX() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "320x200+0+0", primary: true)])
        defer { server.stop() }
        let backend = X11Backend(display: server.display)
        let app = try Application(backend: backend)
        // At 10.5 and 20.25 points (scale 1): columns from 10, rows from 20, its views half a pixel and a
        // quarter in.
        let w = solidWindow(app, app.mainScreen, Rect(x: 10.5, y: 20.25, width: 40.5, height: 30), .white)
        show(w, red: View(frame: Rect(x: 0, y: 0, width: 10, height: 30)), blue: View(frame: Rect(x: 10, y: 5.5, width: 10, height: 10)))
        try app.synchronize()
        let expected = OffscreenRenderer.render(app.mainScreen)
        #expect(expected.pixel(x: 9, y: 30) == 0 && expected.pixel(x: 10, y: 30) == 0xFF0000 && expected.pixel(x: 20, y: 30) == 0x0000FF)
        #expect(await app.run(until: { (try? backend.screenshot(of: app.mainScreen)) == expected }))
    }
}
