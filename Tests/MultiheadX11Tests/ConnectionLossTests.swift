internal import CXlib
import Foundation
import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Testing

@MainActor
@Suite("A lost X connection", .timeLimit(.minutes(3)))
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

    @Test("the server going away while a view animates: the clocked frames' writes fail quietly, the loss is reported")
    func serverDiesWhileAnimating() async throws {
        let (server, app, backend) = try await startX11App(monitors: [.init("MAIN", "800x600+0+0", primary: true)])
        let (window, square) = showSquare(in: app, width: 800, height: 600)
        // The app holds its windows unretained, as UIKit does: this test keeps its own.
        defer { withExtendedLifetime(window) {} }
        var finished: Bool?
        View.animate(withDuration: 30, delay: 0, options: .curveLinear, animations: { square.frame.origin.x = 700 },
                     completion: { finished = $0 })
        // Frames run (their flush only writes while the clock runs), then the server goes.
        let framesBefore = backend.framesPushed
        // Within the animation's 30 s, however long the suite's other tests hold the main actor.
        #expect(await app.run(until: { backend.framesPushed > framesBefore + 2 }, timeout: .seconds(28)))
        server.stop()
        #expect(await app.run(until: { app.connectionError != nil }, timeout: .seconds(5)))
        #expect(app.connectionError as? X11Error == .connectionLost(server.display))
        square.frame.origin.x = 0
        #expect(finished == false)
    }

    /// A connection lost and its app released at once, then a new connection (which gets the same
    /// descriptor number): the new app's read source must still report its own server's end. It did not
    /// when the old descriptor was closed before libdispatch had let go of it: the new source joined the
    /// old registration and never fired, and `run()` waited for ever.
    // Ten servers started one after another, each queued behind the suite's other starts (two at a time):
    // under a sanitizer that took over a minute (hence the suite's three).
    @Test("after a lost connection's app is released at once, the next app on the same descriptor hears its server end")
    func descriptorReusedAfterLoss() async throws {
        for _ in 0..<5 {
            let first = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)])
            let second = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)])
            defer { second.stop() }
            var app: Application? = try first.makeApplication()
            first.stop()
            // In one turn of the main actor: the loss seen (its read source cancelled), the app released
            // (its connection closed), and a new app connected, most likely on the same descriptor number.
            for _ in 0..<1000 where app?.connectionError == nil { app?.backend.processPendingEvents() }
            #expect(app?.connectionError != nil)
            app = nil
            let next = try second.makeApplication()
            second.stop()
            // Only the read source reports it here: nothing else reads the connection.
            var heard = false
            for _ in 0..<300 where !heard {
                try await Task.sleep(for: .milliseconds(10))
                heard = next.connectionError != nil
            }
            #expect(heard, "the read source never reported the server's end")
        }
    }

    /// libX11 takes the display's user-level lock for the thread that sees an IO error and never gives
    /// it back, since it expects the process to exit. Under `dispatchMain()` the main queue moves between
    /// libdispatch's threads, and a later Xlib call from another thread waited for ever: an app's
    /// teardown hung in `XFreeGC`. The thread that saw the loss stays alive while the other one calls,
    /// so the second thread cannot reuse the first one's ID.
    @Test("a loss seen on one thread leaves the display usable from another")
    func lossSeenOnOneThreadThenAnother() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)])
        let connection = try XConnection(name: server.display)
        server.stop()
        let display = UInt(bitPattern: connection.display)
        let lossSeen = DispatchSemaphore(value: 0), otherDone = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        // The loss, seen by a round trip on a thread of its own, which then waits.
        Thread.detachNewThread {
            XSync(OpaquePointer(bitPattern: display), 0)
            lossSeen.signal()
            release.wait()
        }
        let seen = await onOwnThread { lossSeen.wait(timeout: .now() + 10) == .success }
        #expect(seen)
        #expect(connection.isLost)
        // A second thread: a request Xlib drops on a lost display. Without the lock released it waits.
        Thread.detachNewThread {
            XNoOp(OpaquePointer(bitPattern: display))
            otherDone.signal()
        }
        let returned = await onOwnThread { otherDone.wait(timeout: .now() + 10) == .success }
        release.signal()
        #expect(returned, "an Xlib call from a second thread waited for the lock the loss left")
        connection.close()
    }
}
