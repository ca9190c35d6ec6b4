@testable import Multihead
import MultiheadInMemory
import Testing

@MainActor
@Suite("An application without a backend says so; the backend protocol's defaults")
struct DetachedApplicationTests {
    @Test("before attach: no backend, one stand-in screen, mode changes refused with the reason")
    func detachedSaysSo() throws {
        let app = Application()
        #expect(!app.hasBackend)
        #expect(app.screens.count == 1)
        #expect(app.mainScreen.isStandIn)
        #expect(app.mainScreen.bounds.size == Size(width: 1920, height: 1080))
        let error = #expect(throws: ScreenError.self) {
            try app.backend.setMode(ScreenMode(width: 800, height: 600), forScreenNamed: app.mainScreen.name)
        }
        #expect(error.map { "\($0)" }?.contains("no display backend") == true)
    }

    @Test("attach then detach: the screens come and go without notifications, the backend is stopped")
    func attachThenDetach() throws {
        let app = Application()
        let log = NotificationLog(app, label: label)
        let backend = InMemoryBackend()
        try app.attach(backend)
        #expect(app.hasBackend)
        #expect(app.screens.map(\.name) == ["MAIN"])
        app.detach()
        #expect(!app.hasBackend)
        #expect(app.mainScreen.isStandIn)
        #expect(log.entries.isEmpty)
        // A stopped backend reports to no one.
        backend.connect(ScreenDescription(name: "EXT", frame: Rect(x: 1920, y: 0, width: 800, height: 600)))
        #expect(app.screen(named: "EXT") == nil)
    }

    @Test("a backend that cannot read pixels says so through the defaults")
    func protocolDefaults() throws {
        let backend = InMemoryBackend()
        _ = try Application(backend: backend)
        #expect(try backend.pixels(in: Rect(x: 0, y: 0, width: 10, height: 10)) == nil)
        try backend.synchronize()
    }
}
