import Foundation
import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Testing

@MainActor
@Suite("Scale from Xft.dpi on a real Xvfb", .timeLimit(.minutes(3)))
struct ScaleTests {
    @Test("Xft.dpi parses to pixels per point: 96 → 1, 144 → 1.5, 192 → 2; absent or junk → 1")
    func parse() {
        #expect(XResources.scale(fromResources: "Xft.dpi:\t96\n") == 1)
        #expect(XResources.scale(fromResources: "Xcursor.size: 24\nXft.dpi: 144\n") == 1.5)
        #expect(XResources.scale(fromResources: "Xft.dpi:192") == 2)
        #expect(XResources.scale(fromResources: "") == 1)
        #expect(XResources.scale(fromResources: "Xft.dpi: -5\nXft.dpi: nan\n") == 1)
    }

    @Test("xrdb sets Xft.dpi 192: scale 2 (posted as a mode change), and a 100×100-point window covers 200×200 crisp pixels")
    func twoX() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let backend = X11Backend(display: server.display)
        let app = try Application(backend: backend)
        #expect(app.mainScreen.scale == 1 && app.mainScreen.bounds.size == Size(width: 1024, height: 768))
        let log = ScreenNotificationLog(app)

        try await server.mergeResources(["Xft.dpi": "192"])
        try app.synchronize()
        #expect(log.summary == ["mode MAIN"])
        let screen = app.mainScreen
        #expect(screen.scale == 2 && screen.nativeScale == 2)
        #expect(screen.bounds.size == Size(width: 512, height: 384))
        #expect(screen.nativeBounds.size == Size(width: 1024, height: 768))

        let w = solidWindow(app, screen, Rect(x: 10, y: 10, width: 100, height: 100), Color(red: 1, green: 0, blue: 0))
        let inner = TouchRecorder(frame: Rect(x: 50, y: 50, width: 50, height: 50))
        inner.backgroundColor = Color(red: 0, green: 0, blue: 1)
        w.addSubview(inner)
        w.isHidden = false
        app.flush()
        #expect(await app.run(until: { backend.xWindow(for: w) != nil }))
        try app.synchronize()
        let control = try server.controlConnection()
        defer { control.close() }
        let xid = try #require(backend.xWindow(for: w))
        #expect(try control.windowSize(xid) == Size(width: 200, height: 200))
        #expect(w.frameOnDesktop == Rect(x: 20, y: 20, width: 200, height: 200))
        let shot = try control.screenshot(of: Rect(x: 0, y: 0, width: 300, height: 300))
        // Red from pixel 20 to 119, blue from 120 to 219: the 50-point subview is 100 pixels, edges sharp.
        #expect(shot.pixel(x: 21, y: 21) == 0xFF0000 && shot.pixel(x: 119, y: 119) == 0xFF0000)
        #expect(shot.pixel(x: 120, y: 120) == 0x0000FF && shot.pixel(x: 219, y: 219) == 0x0000FF)
        #expect(shot.pixel(x: 220, y: 220) != 0x0000FF)

        // Input in pixels arrives in points: pixel 170's centre, 170.5, is point 85.25.
        try server.tap(at: Point(x: 170, y: 190))
        #expect(await app.run(until: { inner.log.count >= 2 }))
        #expect(inner.log == ["began (25.25, 35.25)", "ended"])
    }

    @Test("a tiny Xft.dpi (1e-300, 47) is passed over for the monitor's density; 48 is taken (scale 0.5)")
    func tinyDPIPassedOver() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let app = try Application(backend: X11Backend(display: server.display))
        let screen = app.mainScreen
        // From 2, so that each change below is seen to have been read.
        try await server.mergeResources(["Xft.dpi": "192"])
        #expect(await app.run(until: { screen.scale == 2 }))
        try await server.mergeResources(["Xft.dpi": "1e-300"])
        #expect(await app.run(until: { screen.scale != 2 }))
        #expect(screen.scale == 1 && screen.bounds.size == Size(width: 1024, height: 768))
        try await server.mergeResources(["Xft.dpi": "192"])
        #expect(await app.run(until: { screen.scale == 2 }))
        try await server.mergeResources(["Xft.dpi": "47"])
        #expect(await app.run(until: { screen.scale != 2 }))
        #expect(screen.scale == 1)
        try await server.mergeResources(["Xft.dpi": "48"])
        #expect(await app.run(until: { screen.scale != 1 }))
        #expect(screen.scale == 0.5 && screen.bounds.size == Size(width: 2048, height: 1536))
    }
}
