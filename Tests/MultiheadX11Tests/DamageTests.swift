@testable import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Testing

@MainActor
@Suite("Damage, not windows: what changed is drawn and sent, and nothing else", .timeLimit(.minutes(3)))
struct DamageTests {
    func start() async throws -> (VirtualServer, Application, X11Backend) { try await startX11App() }

    func pixel(_ server: VirtualServer, _ x: Int, _ y: Int) -> UInt32? {
        try? server.controlConnection().screenshot(of: Rect(x: Double(x), y: Double(y), width: 1, height: 1)).pixels.first
    }

    @Test("a label's change in a full-screen window sends the label's 200×40 pixels, and they show it")
    func labelChange() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let w = Window(frame: Rect(x: 0, y: 0, width: 1920, height: 1080), screen: app.mainScreen)
        w.backgroundColor = .white
        let label = Label(frame: Rect(x: 100, y: 100, width: 200, height: 40))
        label.backgroundColor = Color(red: 1, green: 1, blue: 0)
        label.text = "12:00:00"
        w.addSubview(label)
        let corner = View(frame: Rect(x: 1800, y: 1000, width: 20, height: 20))
        corner.backgroundColor = .blue
        w.addSubview(corner)
        w.isHidden = false
        #expect(await app.run(until: { pixel(server, 1810, 1010) == 0x0000FF }))
        // The first frame sent the whole window once (after its map).
        label.text = "12:00:01"
        app.flush()
        #expect(backend.lastPushedPixels == 200 * 40)
        #expect(backend.lastRedrawCount == 1)
        corner.backgroundColor = .red
        app.flush()
        #expect(backend.lastPushedPixels == 20 * 20)
        #expect(await app.run(until: { pixel(server, 1810, 1010) == 0xFF0000 }))
        // Moving a view sends where it was and where it is.
        corner.frame.origin = Point(x: 1700, y: 1000)
        app.flush()
        #expect(backend.lastPushedPixels == 120 * 20)
        #expect(await app.run(until: { pixel(server, 1710, 1010) == 0xFF0000 && pixel(server, 1810, 1010) == 0xFFFFFF }))
    }

    @Test("an Expose (a window above unmapped) restores the pixels from the buffer, with no redraw")
    func exposeRestores() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let below = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), screen: app.mainScreen)
        below.backgroundColor = .red
        let stripe = View(frame: Rect(x: 100, y: 100, width: 50, height: 50))
        stripe.backgroundColor = .green
        below.addSubview(stripe)
        below.isHidden = false
        let above = Window(frame: Rect(x: 50, y: 50, width: 200, height: 200), screen: app.mainScreen)
        above.backgroundColor = .blue
        above.isHidden = false
        #expect(await app.run(until: { pixel(server, 120, 120) == 0x0000FF }))
        // A change under the cover is drawn into the buffer and sent; the server clips it under `above`.
        stripe.backgroundColor = .yellow
        app.flush()
        above.isHidden = true
        app.flush()
        #expect(backend.lastRedrawCount == 0)
        #expect(await app.run(until: { pixel(server, 120, 120) == 0xFFFF00 && pixel(server, 60, 60) == 0xFF0000 }))
        // Hidden and shown again: its last state.
        below.isHidden = true
        app.flush()
        below.isHidden = false
        #expect(await app.run(until: { pixel(server, 120, 120) == 0xFFFF00 && pixel(server, 300, 300) == 0xFF0000 }))
    }

    @Test("600 frames in a row: no round trip per frame, never drawn into unread pixels, the last one shows")
    func sixHundredFrames() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let w = Window(frame: Rect(x: 0, y: 0, width: 640, height: 480), screen: app.mainScreen)
        w.backgroundColor = .black
        let square = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        w.addSubview(square)
        w.isHidden = false
        app.flush()
        let before = backend.syncCount
        let turnsBefore = backend.eventTurnsScheduled
        // A new colour and place each frame: any frame drawn over pixels still being read would tear.
        func colour(_ i: Int) -> Color { Color(red: Double(i % 256) / 255, green: Double((i / 256) % 256) / 255, blue: 0.5) }
        for i in 0..<600 {
            square.backgroundColor = colour(i)
            square.frame.origin = Point(x: Double(i % 540), y: Double((i * 7) % 380))
            app.flush()
            #expect(backend.lastPushedPixels > 0)
        }
        #expect(backend.syncCount == before)
        // What the flushes read waits for one main-queue turn, not one per frame (600 before).
        #expect(backend.eventTurnsScheduled - turnsBefore <= 1)
        #expect(backend.isUsingSharedMemory)
        // Frames back to back outrun the server: they waited for its reads (completion events), and none
        // drew into pixels it was still reading. The pixels are the last frame's.
        #expect(backend.readWaits > 0)
        #expect(backend.drawsOverUnreadPixels == 0)
        let last = square.frame.origin
        let expected = Bitmap.rgb(colour(599))
        #expect(await app.run(until: {
            pixel(server, Int(last.x) + 50, Int(last.y) + 50) == expected && pixel(server, Int(last.x) + 101, Int(last.y) + 50) == 0
        }))
    }

    @Test("a moving view damages where it was drawn and where it is drawn, not its window; no trail")
    func movingViewDamage() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let clock = AnimationClock(at: 10_000, of: app)
        defer { clock.restore() }
        let (window, square) = showSquare(in: app, width: 640, height: 480)
        // The app holds its windows unretained, as UIKit does: this test keeps its own.
        defer { withExtendedLifetime(window) {} }
        var finished: Bool?
        View.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { square.frame.origin.x = 400 },
                     completion: { finished = $0 })
        clock.now += 0.25
        app.frameClock.frame()
        app.flush()
        // The first frame: where it was drawn (0…50) and where it is drawn (100…150), not the path to where
        // the model went (400): nothing is drawn there before the move ends.
        #expect(backend.lastPushedPixels == 150 * 50)
        clock.now += 0.25
        app.frameClock.frame()
        app.flush()
        // Then where it was drawn (100…150) and is drawn (200…250): one rectangle of 150×50.
        #expect(backend.lastPushedPixels == 150 * 50)
        #expect(await app.run(until: {
            pixel(server, 225, 125) == 0x0000FF && pixel(server, 125, 125) == 0xFFFFFF && pixel(server, 425, 125) == 0xFFFFFF
        }))
        clock.now += 0.6
        app.frameClock.frame()
        app.flush()
        #expect(backend.lastPushedPixels == 250 * 50)
        #expect(finished == true)
        #expect(await app.run(until: { pixel(server, 425, 125) == 0x0000FF && pixel(server, 225, 125) == 0xFFFFFF }))
    }

    @Test("a move across a full-HD window sends only where the view is drawn: nothing at its start, nothing while it waits")
    func moveStartsWithoutStrip() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let clock = AnimationClock(at: 20_000, of: app)
        defer { clock.restore() }
        let (window, square) = showSquare(in: app, width: 1920, height: 1080)
        defer { withExtendedLifetime(window) {} }
        // The map's Expose handled first: its repair is no frame's.
        try app.synchronize()
        let before = backend.totalPushedPixels
        View.animate(withDuration: 1, delay: 0.5, options: .curveLinear, animations: { square.frame.origin.x = 1870 })
        // The block's change draws nothing: the view rests where it was until the delay is over.
        app.flush()
        clock.now += 0.25
        app.frameClock.frame()
        app.flush()
        #expect(backend.totalPushedPixels == before)
        // Half-way: where it rested (0…50) and where it is drawn (935…985), as two rectangles or one.
        clock.now += 0.75
        app.frameClock.frame()
        app.flush()
        #expect(backend.totalPushedPixels - before <= 985 * 50)
        #expect(backend.totalPushedPixels - before >= 2 * 50 * 50)
        #expect(await app.run(until: { pixel(server, 960, 125) == 0x0000FF && pixel(server, 25, 125) == 0xFFFFFF }))
        // The end: where it was drawn and where it rests.
        clock.now += 1
        app.frameClock.frame()
        app.flush()
        #expect(!app.frameClock.animator.isAnimating)
        #expect(await app.run(until: { pixel(server, 1895, 125) == 0x0000FF && pixel(server, 960, 125) == 0xFFFFFF }))
    }

    @Test("one window of twenty changes: the frame lists and draws that window only; a window shown later goes on top")
    func partialScenes() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let ws = (0..<20).map { i -> Window in
            let w = Window(frame: Rect(x: Double(i % 5) * 100, y: Double(i / 5) * 100, width: 100, height: 100), screen: app.mainScreen)
            w.backgroundColor = .gray
            w.isHidden = false
            return w
        }
        app.flush()
        #expect(backend.lastSceneCount == 20)
        ws[7].backgroundColor = .red
        app.flush()
        #expect(backend.lastSceneCount == 1)
        // A window of one colour is filled by the server (its background pixel): nothing to push.
        #expect(backend.lastRedrawCount == 1 && backend.lastPushedPixels == 0)
        #expect(await app.run(until: { pixel(server, 250, 150) == 0xFF0000 && pixel(server, 150, 150) == 0x808080 }))
        // Shown over window 7: a complete scene, and the new window's X window on top.
        let top = Window(frame: Rect(x: 200, y: 100, width: 100, height: 100), screen: app.mainScreen)
        top.backgroundColor = .blue
        top.isHidden = false
        app.flush()
        #expect(backend.lastSceneCount == 21)
        try app.synchronize()
        let control = try server.controlConnection()
        defer { control.close() }
        #expect(try control.mappedStackingOrder().last == backend.xWindow(for: top))
        // The window below changes while covered: drawn and sent, clipped by the server; the cover stays.
        ws[7].backgroundColor = .green
        app.flush()
        #expect(backend.lastSceneCount == 1)
        #expect(await app.run(until: { pixel(server, 250, 150) == 0x0000FF }))
        top.isHidden = true
        #expect(await app.run(until: { pixel(server, 250, 150) == 0x00FF00 }))
        withExtendedLifetime(ws) {}
    }
}
