import Foundation
import Multihead
import MultiheadInMemory
import MultiheadTesting
import MultiheadTestingTraits
import MultiheadX11
import Testing

@MainActor
@Suite("A developer's first hour: main-actor events, one application, waits that explain, the trait", .serialized, .timeLimit(.minutes(3)))
struct FirstHourTests {
    @Test("onScreenEvent calls back on the main actor in posting order, and ends when released")
    func onScreenEventToken() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        let app = try server.makeApplication()
        var seen: [String] = []
        var observation: EventObservation? = app.onScreenEvent { seen.append("\($0.name) \($0.screen.name)") }
        try server.plug("EXT", "800x600+1920+0")
        try app.synchronize()
        #expect(seen == ["connect EXT"])
        observation = nil
        try server.unplug("EXT")
        try app.synchronize()
        #expect(seen == ["connect EXT"])
        _ = observation
    }

    @Test("stop() before run() is not lost: run() returns at once")
    func stopBeforeRun() async throws {
        let app = try Application(backend: InMemoryBackend())
        app.stop()
        try await app.run()
    }

    // The trait holds Application.shared for this test (its gate), so that no trait test running beside
    // it has the shared application taken from under it; the test attaches it to a server of its own.
    @Test("attachShared: Screen.main and Window(frame:) as written run on the kit's server", .virtualServer())
    func sharedApplication() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)])
        let app = try server.attachShared()
        #expect(app === Application.shared && Screen.main.name == "MAIN")
        let w = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        w.backgroundColor = .green
        w.isHidden = false
        try app.synchronize()
        #expect(try server.screenshot(of: "MAIN").pixel(x: 50, y: 50) == Bitmap.rgb(.green))
        w.isHidden = true
        server.stop()
        // The shared application is given back its in-memory backend.
        #expect(!(Application.shared.backend is X11Backend))
    }

    @Test("waitUntil throws naming the caller, the screens seen and a PNG per screen")
    func waitUntilExplains() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)])
        defer { server.stop() }
        let app = try server.makeApplication()
        let dir = NSTemporaryDirectory() + "mh-test-artifacts-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        setenv("MULTIHEAD_ARTIFACTS", dir, 1)
        defer { unsetenv("MULTIHEAD_ARTIFACTS") }
        let line = #line + 2
        do {
            try await app.waitUntil(timeout: .milliseconds(50)) { app.screens.count == 2 }
            Issue.record("a condition that cannot hold held")
        } catch let e as WaitTimeout {
            #expect(e.line == line && e.file.hasSuffix("FirstHourTests.swift"))
            #expect(e.screens == ["MAIN 640x480+0+0 640x480"])
            #expect(e.screenshots == ["\(dir)/FirstHourTests-\(line)-MAIN.png"])
            #expect(try Bitmap(contentsOfPNG: e.screenshots[0]).width == 640)
            #expect(e.description.contains("FirstHourTests.swift:\(line): the condition did not hold"))
        }
    }

    @Test("the .virtualServer trait: a private server per test, the shared application attached",
          .virtualServer(monitors: [.init("LEFT", "800x600+0+0", primary: true), .init("RIGHT", "800x600+800+0")]))
    func trait() async throws {
        let server = try #require(VirtualServer.current)
        #expect(Screen.screens.map(\.name) == ["LEFT", "RIGHT"])
        try server.plug("TV", "640x480+1600+0")
        try Application.shared.synchronize()
        #expect(Screen.screens.map(\.name) == ["LEFT", "RIGHT", "TV"])
    }
}
