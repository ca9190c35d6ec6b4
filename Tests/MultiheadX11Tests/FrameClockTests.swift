import Foundation
@testable import Multihead
import MultiheadTesting
@testable import MultiheadX11
import Testing

/// While animations or a display link drive frames, the app reads the X connection once a frame
/// and its read source rests (one wake-up a frame, not two); once they stop, the source watches again.
/// Nothing here calls `run(until:)` or `processPendingEvents()`: only the frames and the source read.
@MainActor
@Suite("Clocked frames read the connection themselves", .timeLimit(.minutes(3)))
struct FrameClockTests {
    func start() async throws -> (VirtualServer, Application, X11Backend) {
        try await startX11App(monitors: [.init("MAIN", "800x600+0+0", primary: true)])
    }

    /// Yields the main actor until `fact` holds (the timers and the read source run meanwhile), for at most
    /// `timeout`: a bound for a failure to end, not a wait (a first display-link frame took over 5 s
    /// beside a CPU hog on the one core the whole suite ran on).
    func await(_ fact: () -> Bool, timeout: Duration = .seconds(30)) async throws -> Bool {
        let end = ContinuousClock.now.advanced(by: timeout)
        while !fact() && ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(5)) }
        return fact()
    }

    /// The screens a notification named, for `app`.
    @MainActor
    final class Heard {
        var names: [String] = []
    }

    func listen(_ app: Application, _ name: Notification.Name) -> (Heard, any NSObjectProtocol) {
        let heard = Heard()
        let token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { n in
            nonisolated(unsafe) let n = n
            MainActor.assumeIsolated {
                if let s = n.object as? Screen, s.application === app { heard.names.append(s.name) }
            }
        }
        return (heard, token)
    }

    @Test("a monitor plugged while a view animates is heard at a frame's start; the source sleeps, then wakes")
    func animationReadsEvents() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let (window, square) = showSquare(in: app, width: 400, height: 300)
        // The app holds its windows unretained, as UIKit does: this test keeps its own.
        defer { withExtendedLifetime(window) {} }
        let (connected, t1) = listen(app, Screen.didConnectNotification)
        let (disconnected, t2) = listen(app, Screen.didDisconnectNotification)
        defer { [t1, t2].forEach(NotificationCenter.default.removeObserver) }
        var finished: Bool?
        let wakeupsBefore = backend.sourceWakeups
        // Repeating until the test ends it: how many frames a span of time holds depends on the machine's
        // load (a sanitizer build under the whole suite made three in 0.6 s), so the test waits for facts.
        View.animate(withDuration: 0.6, delay: 0, options: [.curveLinear, .repeat, .autoreverse],
                     animations: { square.frame.origin.x = 350 }, completion: { finished = $0 })
        // Once the clock runs (a frame pushed), the source rests: what comes now only a frame reads.
        let framesBefore = backend.framesPushed
        #expect(try await self.await { backend.framesPushed > framesBefore })
        try server.plug("EXT-1", "640x480+800+0")
        #expect(try await self.await({ connected.names == ["EXT-1"] && backend.framesPushed - framesBefore >= 5 },
                                     timeout: .seconds(30)), "the plug was not heard while the view moved")
        #expect(finished == nil)
        // Each frame's completion event woke the source when it watched during frames (one per frame). The
        // first frame's tick may find the source's wake-up for the window's first frame under way.
        #expect(backend.sourceWakeups - wakeupsBefore <= 1)
        // A plain change ends the animation (completion false); the next frame finds nothing to run and
        // stops the clock.
        square.frame.origin.x = 0
        #expect(finished == false)
        // The clock stopped: once the turn for what its last frame read has run, the source alone hears
        // the unplug (before, that turn could read it first).
        #expect(try await self.await { !app.frameClock.isRunning && !backend.eventTurnPending })
        let wakeups = backend.sourceWakeups
        try server.unplug("EXT-1")
        #expect(try await self.await { disconnected.names == ["EXT-1"] }, "the read source did not wake again")
        #expect(backend.sourceWakeups > wakeups)
    }

    @Test("an animation's frames ask for no main-queue turn: what a frame's flush read waits for the next frame")
    func framesAskForNoTurns() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let (window, square) = showSquare(in: app, width: 400, height: 300)
        defer { withExtendedLifetime(window) {} }
        var finished: Bool?
        View.animate(withDuration: 0.6, delay: 0, options: [.curveLinear, .repeat, .autoreverse],
                     animations: { square.frame.origin.x = 350 }, completion: { finished = $0 })
        let framesBefore = backend.framesPushed
        #expect(try await self.await { backend.framesPushed > framesBefore })
        // Each frame's put brings a completion event, which the flush's read often finds: a turn for it
        // each time would run the main loop twice a frame. The first frame may find a turn under way.
        let turnsBefore = backend.eventTurnsScheduled, pushed = backend.framesPushed
        #expect(try await self.await { backend.framesPushed - pushed >= 30 })
        #expect(backend.eventTurnsScheduled - turnsBefore <= 1)
        // The clock stops: what its last frame read is handled in a turn of its own, and the source watches.
        square.frame.origin.x = 0
        #expect(finished == false)
        #expect(try await self.await { !app.frameClock.isRunning && !backend.eventTurnPending })
        let wakeups = backend.sourceWakeups
        try server.plug("EXT-1", "640x480+800+0")
        #expect(try await self.await { app.screens.contains { $0.name == "EXT-1" } }, "the read source did not wake again")
        #expect(backend.sourceWakeups > wakeups)
    }

    @Test("a display link's frames read the connection; invalidated, the read source hears the server again")
    func displayLinkReadsEvents() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let (connected, t1) = listen(app, Screen.didConnectNotification)
        let (disconnected, t2) = listen(app, Screen.didDisconnectNotification)
        defer { [t1, t2].forEach(NotificationCenter.default.removeObserver) }
        var frames = 0
        let link = app.mainScreen.displayLink { _ in frames += 1 }
        defer { link.invalidate() }
        #expect(try await self.await { frames > 0 })
        let wakeups = backend.sourceWakeups
        try server.plug("EXT-1", "640x480+800+0")
        #expect(try await self.await { connected.names == ["EXT-1"] })
        #expect(backend.sourceWakeups == wakeups)
        link.invalidate()
        // The turn for what the last frame read first: what comes after it only the source can read.
        #expect(try await self.await { !backend.eventTurnPending })
        try server.unplug("EXT-1")
        #expect(try await self.await { disconnected.names == ["EXT-1"] }, "the read source did not wake again")
        #expect(backend.sourceWakeups > wakeups)
    }

    @Test("a clocked frame's pixels reach the server by its own end, not with the next frame's read")
    func clockedFrameIsSentAtItsEnd() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        // Drawn by the app and pushed (a one-colour window would be filled by the server).
        let w = drawnWindow(app, app.mainScreen, Rect(x: 0, y: 0, width: 200, height: 100), .white)
        w.isHidden = false
        app.flush()
        // Frames read the socket while the clock runs, so a frame's flush only writes: this checks that it
        // does write. Between frames (a main-queue turn after the one that turned red) the main thread
        // makes no frame and no other flush, so red shows only if that frame's own end sent it.
        var seen: UInt32?
        var turned = false
        var checked = false
        let link = app.mainScreen.displayLink { _ in
            guard !turned, backend.framesPushed > 0 else { return }
            turned = true
            w.backgroundColor = .red
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    let end = ContinuousClock.now.advanced(by: .seconds(10))
                    repeat { seen = try? server.screenshot(of: "MAIN").pixel(x: 100, y: 50) }
                    while seen != 0xFF0000 && ContinuousClock.now < end
                    checked = true
                }
            }
        }
        defer { link.invalidate() }
        #expect(try await self.await({ checked }, timeout: .seconds(30)))
        #expect(seen == 0xFF0000, "the frame's put waited for the next frame")
    }
}
