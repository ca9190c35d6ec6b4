import Multihead
@testable import MultiheadGL
import MultiheadTesting
import MultiheadX11
import Testing

/// Drawables larger than GL takes: in `GLViewTests`, so that they run in the GL tests' own process.
extension GLViewTests {
    @Test("a finite but huge GL view (3e9, 1e20, 20000 points wide) draws its background and says why; nothing traps",
          arguments: [3e9, 1e20, 20000])
    func hugeDrawableIsRefused(width: Double) async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        let app = try server.makeApplication()
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 100), screen: app.mainScreen)
        window.backgroundColor = .white
        let delegate = TriangleDelegate(clear: blue)
        let view = GLView(frame: Rect(x: 0, y: 0, width: width, height: 50))
        view.backgroundColor = .red
        view.delegate = delegate
        window.addSubview(view)
        window.isHidden = false
        try await app.waitUntil(timeout: glWait) {
            view.renderingError != nil && pixel(server, window, at: Point(x: 100, y: 25))?.near(.red) == true
        }
        let error = try #require(view.renderingError)
        guard case .drawableTooLarge(let w, let h, let limit) = error else {
            Issue.record("not refused for its size: \(error)")
            return
        }
        #expect(w == view.drawableSize.width && h == 50 && limit > 0 && Double(limit) < width)
        // The size and the limit, as a person reads them.
        let shown = width == 1e20 ? "1e+20" : String(Int(width))
        #expect(error.description == "the drawable of \(shown)×50 pixels is larger than GL takes here (at most \(limit) pixels a side)")
        #expect(delegate.frames == 0 && view.framesDrawn == 0 && view.snapshot().width == 0)
        // Below the view: the window's own background.
        #expect(pixel(server, window, at: Point(x: 100, y: 75))?.near(.white) == true)
    }
}
