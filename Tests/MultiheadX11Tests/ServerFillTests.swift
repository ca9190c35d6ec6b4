@testable import Multihead
import MultiheadTesting
@testable import MultiheadX11
import Testing

/// A window whose drawing is one opaque colour is filled by the server (its background pixel): no buffer,
/// nothing pushed, and the pixels cairo would have drawn, through every change a window goes through.
@MainActor
@Suite("One-colour windows are filled by the server", .timeLimit(.minutes(3)))
struct ServerFillTests {
    func start() async throws -> (VirtualServer, Application, X11Backend) {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "1920x1080+0+0", primary: true)],
                                                   framebuffer: Size(width: 1920, height: 1080))
        let backend = X11Backend(display: server.display)
        return (server, try Application(backend: backend), backend)
    }

    /// What cairo draws for a colour (the offscreen renderer draws the model as the buffer path would).
    func cairoPixel(_ color: Color) throws -> UInt32 {
        let w = Window(frame: Rect(x: 0, y: 0, width: 4, height: 4))
        w.backgroundColor = color
        return try #require(OffscreenRenderer.render(w).pixel(x: 1, y: 1))
    }

    @Test("a full-screen window of one colour: no buffer, no pixel pushed, cairo's pixel everywhere on it")
    func fullScreen() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let odd = Color(red: 0.75, green: 0.3, blue: 0.1)
        let w = Window(frame: app.mainScreen.bounds, screen: app.mainScreen)
        w.backgroundColor = odd
        w.isHidden = false
        try app.synchronize()
        #expect(backend.totalPushedPixels == 0 && backend.sharedSegmentIDs.isEmpty)
        let want = try cairoPixel(odd)
        for (x, y) in [(0, 0), (960, 540), (1919, 1079)] { #expect(try server.pixel(x: x, y: y, on: "MAIN") == want) }
        w.backgroundColor = .green
        try app.synchronize()
        #expect(try server.pixel(x: 5, y: 5, on: "MAIN") == Bitmap.rgb(.green) && backend.totalPushedPixels == 0)
    }

    @Test("content added: drawn and pushed by the app; taken away: filled by the server again, the buffer released")
    func contentComesAndGoes() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let w = Window(frame: Rect(x: 100, y: 100, width: 300, height: 200), screen: app.mainScreen)
        w.backgroundColor = .white
        w.isHidden = false
        try app.synchronize()
        let square = View(frame: Rect(x: 10, y: 10, width: 50, height: 50))
        square.backgroundColor = .red
        w.addSubview(square)
        try app.synchronize()
        #expect(backend.totalPushedPixels >= 300 * 200 && backend.sharedSegmentIDs.count == 1)
        #expect(try server.pixel(x: 130, y: 130, on: "MAIN") == Bitmap.rgb(.red))
        #expect(try server.pixel(x: 300, y: 250, on: "MAIN") == Bitmap.rgb(.white))
        square.isHidden = true
        try app.synchronize()
        #expect(backend.sharedSegmentIDs.isEmpty)
        #expect(try server.pixel(x: 130, y: 130, on: "MAIN") == Bitmap.rgb(.white))
    }

    @Test("resized, and uncovered by a window hidden over it: the server paints the colour where it shows")
    func resizedAndExposed() async throws {
        let (server, app, _) = try await start()
        defer { server.stop() }
        let w = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), screen: app.mainScreen)
        w.backgroundColor = .blue
        w.isHidden = false
        try app.synchronize()
        w.frame = Rect(x: 0, y: 0, width: 400, height: 300)
        try app.synchronize()
        #expect(try server.pixel(x: 350, y: 250, on: "MAIN") == Bitmap.rgb(.blue))
        let over = Window(frame: Rect(x: 50, y: 50, width: 100, height: 100), screen: app.mainScreen)
        over.backgroundColor = .red
        over.isHidden = false
        try app.synchronize()
        #expect(try server.pixel(x: 60, y: 60, on: "MAIN") == Bitmap.rgb(.red))
        over.isHidden = true
        try app.synchronize()
        #expect(try server.pixel(x: 60, y: 60, on: "MAIN") == Bitmap.rgb(.blue))
    }

    @Test("pixel(x:y:on:) reads one pixel of a screen; outside it, or of no such screen, a clear error")
    func onePixel() async throws {
        let (server, app, _) = try await start()
        defer { server.stop() }
        let w = Window(frame: Rect(x: 10, y: 20, width: 1, height: 1), screen: app.mainScreen)
        w.backgroundColor = .red
        w.isHidden = false
        try app.synchronize()
        #expect(try server.pixel(x: 10, y: 20, on: "MAIN") == Bitmap.rgb(.red))
        #expect(try server.pixel(x: 11, y: 20, on: "MAIN") == 0)
        #expect(throws: (any Error).self) { try server.pixel(x: 1920, y: 0, on: "MAIN") }
        #expect(throws: ScreenError.self) { try server.pixel(x: 0, y: 0, on: "NOPE") }
    }
}
