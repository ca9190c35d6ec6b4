import Foundation
import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Testing

/// A view that counts its trait changes.
@MainActor
final class TraitRecorder: View {
    var changes: [Double?] = []
    override func traitCollectionDidChange(_ previous: TraitCollection?) { changes.append(previous?.displayScale) }
}

/// A controller that counts its trait changes.
@MainActor
final class TraitController: ViewController {
    var changes = 0
    override func traitCollectionDidChange(_ previous: TraitCollection?) { changes += 1 }
}

/// Screens of different scales side by side: ONE at 1×, HALF at 1.5× (a named factor), DENSE at 2× (its
/// density: 1600×1200 pixels on 203×152 mm, 200 pixels per inch).
@MainActor
@Suite("Every screen its own scale, on a real Xvfb", .timeLimit(.minutes(3)))
struct PerScreenScaleTests {
    static let layout: [VirtualServer.Monitor] = [
        .init("ONE", "800x600+0+0", primary: true), .init("HALF", "800x600+800+0"),
        .init("DENSE", "1600x1200+1600+0", physicalSize: Size(width: 203, height: 152)),
    ]

    func start() async throws -> (VirtualServer, Application, X11Backend) {
        let server = try await VirtualServer.start(monitors: Self.layout)
        let backend = X11Backend(display: server.display, screenScaleFactors: ["HALF": 1.5])
        return (server, try Application(backend: backend), backend)
    }

    /// A white window of 100×80 points at (10, 10) with a black 1-point vertical line at x = 10, shown.
    func lined(_ app: Application, on screen: Screen) -> Window {
        let w = solidWindow(app, screen, Rect(x: 10, y: 10, width: 100, height: 80), .white)
        let line = View(frame: Rect(x: 10, y: 0, width: 1, height: 80))
        line.backgroundColor = .black
        w.addSubview(line)
        w.isHidden = false
        return w
    }

    /// The non-white pixels of one row of a screenshot, as runs (start, length).
    func inkRuns(_ shot: Bitmap, y: Int) -> [(Int, Int)] {
        var runs: [(Int, Int)] = [], x = 0
        while x < shot.width {
            guard shot.pixel(x: x, y: y) != 0xFFFFFF else { x += 1; continue }
            let start = x
            while x < shot.width, shot.pixel(x: x, y: y) != 0xFFFFFF { x += 1 }
            runs.append((start, x - start))
        }
        return runs
    }

    @Test("each screen has its own scale; a window's X size and a 1-point line are its screen's pixels")
    func sizesAndLines() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let scales = Dictionary(uniqueKeysWithValues: app.screens.map { ($0.name, $0.scale) })
        #expect(scales == ["ONE": 1, "HALF": 1.5, "DENSE": 2])
        #expect(app.screen(named: "DENSE")?.bounds.size == Size(width: 800, height: 600))
        let control = try server.controlConnection()
        for (name, s) in [("ONE", 1.0), ("HALF", 1.5), ("DENSE", 2.0)] {
            let screen = try #require(app.screen(named: name))
            let w = lined(app, on: screen)
            #expect(w.traitCollection.displayScale == s && w.subviews[0].contentScaleFactor == s)
            try app.synchronize()
            #expect(await app.run(until: { backend.xWindow(for: w) != nil }))
            let xid = try #require(backend.xWindow(for: w))
            #expect(try control.windowSize(xid) == Size(width: 100 * s, height: 80 * s))
            // The window's content: its line starts at 10 points and is one point wide, in this screen's pixels.
            let inside = Rect(x: screen.frame.minX + 10 * s, y: screen.frame.minY + 10 * s, width: 100 * s, height: 80 * s)
            var runs: [(Int, Int)] = []
            var row: Bitmap?
            #expect(await app.run(until: {
                row = try? control.screenshot(of: inside)
                runs = row.map { inkRuns($0, y: Int(40 * s)) } ?? []
                return runs.count == 1
            }))
            // Edges on whole pixels, as the presenter snaps them: 1 pixel at 1×, 2 at 2×; at 1.5× the line
            // from 15 to 16.5 pixels is 1 or 2, and black, not a grey smear.
            let (start, width) = try #require(runs.first)
            #expect(start == Int(10 * s), "\(name): \(runs)")
            #expect((Int(s.rounded(.down))...Int(s.rounded(.up))).contains(width), "\(name): \(runs)")
            #expect((start..<start + width).allSatisfy { row?.pixel(x: $0, y: Int(40 * s)) == 0 }, "\(name): \(runs)")
            w.isHidden = true
        }
    }

    @Test("text at 2× is drawn at twice the pixels, sharp: not a 1× picture enlarged")
    func textInk() async throws {
        let (server, app, _) = try await start()
        defer { server.stop() }
        let control = try server.controlConnection()
        var boxes: [String: Rect] = [:]
        var shots: [String: Bitmap] = [:]
        for name in ["ONE", "DENSE"] {
            let screen = try #require(app.screen(named: name))
            let w = solidWindow(app, screen, Rect(x: 0, y: 0, width: 300, height: 100), .white)
            let label = Label(frame: Rect(x: 10, y: 10, width: 280, height: 60))
            label.text = "Multihead Wg"
            label.textColor = .black
            w.addSubview(label)
            w.isHidden = false
            let area = Rect(x: screen.frame.minX, y: screen.frame.minY, width: 300 * screen.scale, height: 100 * screen.scale)
            #expect(await app.run(until: {
                guard let shot = try? control.screenshot(of: area), let box = inkBox(shot, in: Rect(x: 0, y: 0, width: Double(shot.width), height: Double(shot.height)), background: 0xFFFFFF) else { return false }
                boxes[name] = box
                shots[name] = shot
                return true
            }))
        }
        let one = try #require(boxes["ONE"]), two = try #require(boxes["DENSE"]), shot = try #require(shots["DENSE"])
        #expect(abs(two.height - 2 * one.height) <= 3 && abs(two.width - 2 * one.width) <= 4, "\(one) \(two)")
        // An enlarged 1× picture is made of 2×2 blocks of one colour, at one of four alignments; this is not.
        for (ox, oy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            var differs = false
            var y = Int(two.minY) + oy
            while y + 1 < Int(two.maxY), !differs {
                var x = Int(two.minX) + ox
                while x + 1 < Int(two.maxX), !differs {
                    let p = shot.pixel(x: x, y: y)
                    differs = p != shot.pixel(x: x + 1, y: y) || p != shot.pixel(x: x, y: y + 1) || p != shot.pixel(x: x + 1, y: y + 1)
                    x += 2
                }
                y += 2
            }
            #expect(differs, "the 2× text is made of 2×2 blocks at offset (\(ox), \(oy))")
        }
    }

    @Test("a window moved 1× → 2× → 1× (by assignment, then by an unplug) keeps its points, is drawn at each scale, told once each time")
    func moves() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let one = try #require(app.screen(named: "ONE")), dense = try #require(app.screen(named: "DENSE"))
        let controller = TraitController()
        let root = TraitRecorder(frame: Rect(x: 0, y: 0, width: 100, height: 80))
        controller.view = root
        let child = TraitRecorder(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        child.backgroundColor = .black
        root.addSubview(child)
        let w = solidWindow(app, one, Rect(x: 0, y: 0, width: 100, height: 80), .white)
        w.addSubview(root)
        w.isHidden = false
        let control = try server.controlConnection()
        func xSize() async throws -> Size? {
            try app.synchronize()
            _ = await app.run(until: { backend.xWindow(for: w) != nil })
            return try backend.xWindow(for: w).map { try control.windowSize($0) }
        }
        #expect(try await xSize() == Size(width: 100, height: 80))
        w.screen = dense
        #expect(root.changes == [1] && child.changes == [1] && controller.changes == 1)
        #expect(w.frame.size == Size(width: 100, height: 80) && child.traitCollection.displayScale == 2)
        #expect(try await xSize() == Size(width: 200, height: 160))
        // The black child, 20 points at (10, 10), is 40 pixels at (20, 20) now.
        #expect(await app.run(until: { (try? control.screenshot(of: Rect(x: 1600 + 20, y: 20, width: 40, height: 40)))?.pixel(x: 39, y: 39) == 0 }))
        try server.unplug("DENSE")
        #expect(await app.run(until: { w.screen === app.mainScreen }))
        #expect(root.changes == [1, 2] && child.changes == [1, 2] && controller.changes == 2)
        #expect(w.frame.size == Size(width: 100, height: 80) && child.contentScaleFactor == 1)
        w.isHidden = false
        #expect(try await xSize() == Size(width: 100, height: 80))
        // Assigning the screen it is on, or one of the same scale, tells nobody.
        w.screen = one
        #expect(root.changes == [1, 2])
    }

    @Test("a mode change on the same panel changes its scale: 1600×1200 on 203 mm is 2×, 800×600 on it 1×")
    func modeChangesScale() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let dense = try #require(app.screen(named: "DENSE"))
        let view = TraitRecorder(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        let w = solidWindow(app, dense, Rect(x: 0, y: 0, width: 100, height: 100), .white)
        w.addSubview(view)
        w.isHidden = false
        try server.controlConnection().setMode("DENSE", size: Size(width: 800, height: 600))
        #expect(await app.run(until: { dense.scale == 1 }))
        #expect(view.changes == [2] && dense.bounds.size == Size(width: 800, height: 600))
        #expect(dense.physicalSize == Size(width: 203, height: 152))
        try app.synchronize()
        let xid = try #require(backend.xWindow(for: w))
        #expect(await app.run(until: { (try? server.controlConnection().windowSize(xid)) == Size(width: 100, height: 100) }))
    }

    @Test("a tap on a 2× screen lands in points, at the pixel's centre: the pixel left of a view's edge misses it, the edge's pixel hits")
    func hitTesting() async throws {
        let (server, app, _) = try await start()
        defer { server.stop() }
        let dense = try #require(app.screen(named: "DENSE"))
        let w = solidWindow(app, dense, Rect(x: 0, y: 0, width: 200, height: 200), .white)
        let target = TouchRecorder(frame: Rect(x: 10, y: 10, width: 50, height: 50))
        w.addSubview(target)
        w.isHidden = false
        try app.synchronize()
        // Desktop pixel 1600 + 19 (its centre 19.5) is point 9.75: outside. Pixel 1600 + 20 is point 10.25: inside.
        try server.tap(at: Point(x: 1600 + 19, y: 40))
        try server.tap(at: Point(x: 1600 + 20, y: 41))
        #expect(await app.run(until: { target.log.count >= 2 }))
        #expect(target.log == ["began (0.25, 10.75)", "ended"])
    }
}
