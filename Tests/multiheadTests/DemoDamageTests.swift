import Multihead
import MultiheadTesting
@testable import multihead
import MultiheadX11
import Testing

@MainActor
@Suite("The demo's screen list is drawn through damage", .timeLimit(.minutes(3)))
struct DemoDamageTests {
    @Test("a screen unplugged: the main window sends the line that went, not the window")
    func screenListDamage() async throws {
        let server = try await VirtualServer.start(monitors: [
            .init("MAIN", "1024x768+0+0", primary: true), .init("SIDE", "640x480+1024+0"),
        ])
        defer { server.stop() }
        let app = try server.makeApplication()
        let backend = try #require(app.backend as? X11Backend)
        let demo = DemoController(app: app)
        demo.launch()
        try app.synchronize()
        let main = try #require(demo.mainWindow)
        let list = try #require(main.rootViewController?.view.subviews.last)
        let lines = list.subviews
        try #require(lines.count == 2)
        let gone = lines[1].convert(lines[1].bounds, to: main)
        let before = backend.totalPushedPixels
        try server.unplug("SIDE")
        try app.synchronize()
        #expect(list.subviews.count == 1)
        // The second line's pixels (rounded out to whole pixels), nothing else of the 1024×768 window.
        let sent = backend.totalPushedPixels - before
        let expected = PixelBox(gone)
        #expect(sent == expected.area, "sent \(sent) pixels, the line is \(expected.area)")
        // And the server shows the window's background where the line was.
        let shot = try server.screenshot(of: "MAIN")
        let background = try #require(shot.pixel(x: 1000, y: 700))
        #expect(shot.pixel(x: Int(gone.minX) + 5, y: Int(gone.midY)) == background)
    }
}

/// The whole pixels a rectangle of points covers at scale 1.
struct PixelBox {
    let area: Int
    init(_ r: Rect) {
        let w = r.maxX.rounded(.up) - r.minX.rounded(.down), h = r.maxY.rounded(.up) - r.minY.rounded(.down)
        area = Int(w) * Int(h)
    }
}
