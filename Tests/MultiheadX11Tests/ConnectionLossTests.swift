import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11
import Testing

@MainActor
@Suite("A lost X connection", .timeLimit(.minutes(1)))
struct ConnectionLossTests {
    @Test("the server dying is reported as an error, the process lives, and later calls throw")
    func serverDies() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "800x600+0+0", primary: true)])
        let app = try server.makeApplication()
        let screen = app.mainScreen
        server.stop()
        #expect(await app.run(until: { app.connectionError != nil }, timeout: .seconds(2)))
        let error = try #require(app.connectionError as? X11Error)
        #expect(error == .connectionLost(server.display))
        // Screens stay as they were last seen; asking the dead server for anything throws.
        #expect(app.screens.map(\.name) == ["MAIN"])
        #expect(throws: X11Error.connectionLost(server.display)) {
            try app.backend.setMode(ScreenMode(width: 640, height: 480), forScreenNamed: screen.name)
        }
        await #expect(throws: X11Error.self) { try await app.run() }
        // Draining again is harmless.
        app.backend.processPendingEvents()
    }

    /// Time limits are asserted on `multihead watch`, a process of its own (CommandLineTests): here the
    /// tests share the main actor, so a clock would measure the other tests too.
    @Test("run() ends with the error, not a hang, when the server dies while it waits")
    func runThrows() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "800x600+0+0", primary: true)])
        let app = try server.makeApplication()
        // Runs once run() has suspended: both share the main actor.
        Task { @MainActor in server.stop() }
        await #expect(throws: X11Error.connectionLost(server.display)) { try await app.run() }
    }

    @Test("a server that stops answering is a lost connection after the backend's timeout, never a hang")
    func frozenServerIsALostConnection() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "800x600+0+0", primary: true)])
        defer { kill(server.pid, SIGCONT); server.stop() }
        let app = try Application(backend: X11Backend(display: server.display, timeout: 0.5))
        kill(server.pid, SIGSTOP)
        #expect(throws: X11Error.notResponding(server.display)) { try app.refreshScreens() }
        app.backend.processPendingEvents()
        #expect(app.connectionError as? X11Error == .notResponding(server.display))
        // Connecting to it is bounded too.
        #expect(throws: X11Error.notResponding(server.display)) { try ServerControl(display: server.display, timeout: 0.3) }
    }

    @Test("the server going away mid-frame: the frame is dropped, the error is the app's to handle")
    func serverDiesMidFrame() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "800x600+0+0", primary: true)])
        let app = try server.makeApplication()
        let w = Window(frame: Rect(x: 0, y: 0, width: 800, height: 600), screen: app.mainScreen)
        w.backgroundColor = .red
        w.isHidden = false
        app.flush()
        w.backgroundColor = .blue
        server.stop()
        // Drawing and putting into a dead connection: no crash, no exit.
        app.flush()
        #expect(await app.run(until: { app.connectionError != nil }, timeout: .seconds(3)))
        #expect(app.connectionError as? X11Error == .connectionLost(server.display))
        w.backgroundColor = .green
        w.isHidden = true
        w.isHidden = false
        app.flush()
    }
}
