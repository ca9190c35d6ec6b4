import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Testing

/// One rule for which view a pixel belongs to: the one covering its centre, for drawing and input alike.
@MainActor
@Suite("A pixel belongs to the view that covers its centre")
struct PixelCentreTests {
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

    @Test("on a real X server at 1.25× and 1.75×: each pixel around two views' edge is tapped as the view whose colour it shows",
          arguments: [1.25, 1.75])
    func tapsFollowPixels(scale: Double) async throws {
        let server = try await VirtualServer.start(monitors: [.init("EDGE", "800x600+0+0", primary: true)])
        defer { server.stop() }
        let backend = X11Backend(display: server.display, screenScaleFactors: ["EDGE": scale])
        let app = try Application(backend: backend)
        let screen = app.mainScreen
        #expect(screen.scale == scale)
        // At (8, 8) points: the window starts on a whole pixel at both scales; the views meet at 10 points.
        let w = solidWindow(app, screen, Rect(x: 8, y: 8, width: 40, height: 20), .white)
        let a = TouchRecorder(frame: Rect(x: 0, y: 0, width: 10, height: 20))
        a.backgroundColor = Color(red: 1, green: 0, blue: 0)
        let b = TouchRecorder(frame: Rect(x: 10, y: 0, width: 10, height: 20))
        b.backgroundColor = Color(red: 0, green: 0, blue: 1)
        w.addSubview(a)
        w.addSubview(b)
        w.isHidden = false
        let control = try server.controlConnection()
        defer { control.close() }
        // The edge in desktop pixels (22.5 at 1.25×, 31.5 at 1.75×) and a band of pixels around it.
        let edge = Int((w.frameOnDesktop.minX + 10 * scale).rounded(.down))
        let y = Int(w.frameOnDesktop.midY)
        let band = Rect(x: Double(edge - 3), y: Double(y), width: 7, height: 1)
        var shot: Bitmap?
        #expect(await app.run(until: {
            shot = try? control.screenshot(of: band)
            return shot.map { s in (0..<7).allSatisfy { [0xFF0000, 0x0000FF].contains(s.pixel(x: $0, y: 0)) } } ?? false
        }))
        let row = try #require(shot)
        var seen: Set<String> = []
        for i in 0..<7 {
            let painted = row.pixel(x: i, y: 0) == 0xFF0000 ? "A" : "B"
            seen.insert(painted)
            let before = (a.log.count, b.log.count)
            try server.tap(at: Point(x: band.minX + Double(i), y: Double(y)))
            #expect(await app.run(until: { a.log.count + b.log.count >= before.0 + before.1 + 2 }))
            let pressed = a.log.count > before.0 ? "A" : b.log.count > before.1 ? "B" : "-"
            #expect(pressed == painted, "desktop pixel \(edge - 3 + i) at \(scale)×: painted \(painted), pressed \(pressed)")
        }
        #expect(seen == ["A", "B"])
    }
}
