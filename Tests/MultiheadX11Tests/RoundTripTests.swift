internal import CXlib
import Foundation
import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Testing

/// What a re-read costs: the screen resources are kept until RandR says they changed.
@MainActor
@Suite("Round trips: cached resources, pipelined reads", .timeLimit(.minutes(3)))
struct RoundTripTests {
    /// Xorg with the dummy driver and `monitors`, an app on it, its X11 backend, and how many outputs the
    /// server has (the dummy driver's sixteen, whatever the layout lights).
    func startDummy(_ monitors: [VirtualServer.Monitor]) async throws -> (VirtualServer, Application, X11Backend, Int) {
        let server = try await VirtualServer.start(.xorgDummy, monitors: monitors)
        do {
            let app = try server.makeApplication()
            let control = try server.controlConnection()
            let outputs = control.outputNames.count
            control.close()
            return (server, app, try #require(app.backend as? X11Backend), outputs)
        } catch {
            server.stop()
            throw error
        }
    }
    @Test("a virtual monitor plugged again costs one round trip (GetMonitors and the resources' list); the first time its name too")
    func virtualPlugCostsOneRequest() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        let app = try server.makeApplication()
        let x11 = try #require(app.backend as? X11Backend)
        let log = ScreenNotificationLog(app)
        let frame = "640x480+1920+0"

        var before = x11.randrTally
        try server.plug("EXT-RT", frame)
        try app.synchronize()
        // GetMonitors with the resources' list (for the configuration serial), then the new monitor's name:
        // two round trips, no output's or CRTC's details (the list has the same objects).
        #expect(x11.randrTally - before == .init(roundTrips: 2, requests: 3))
        try server.unplug("EXT-RT")
        try app.synchronize()

        before = x11.randrTally
        try server.plug("EXT-RT", frame)
        try app.synchronize()
        #expect(x11.randrTally - before == .init(roundTrips: 1, requests: 2))
        before = x11.randrTally
        try server.unplug("EXT-RT")
        try app.synchronize()
        #expect(x11.randrTally - before == .init(roundTrips: 1, requests: 2))
        #expect(log.summary == ["connect EXT-RT", "disconnect EXT-RT", "connect EXT-RT", "disconnect EXT-RT"])
    }

    @Test("refreshScreens reads the resources in two round trips whatever the number of outputs")
    func fullReadIsTwoRoundTrips() async throws {
        let (server, app, x11, outputs) = try await startDummy([
            .init("DUMMY0", "1024x768+0+0", primary: true), .init("DUMMY1", "800x600+1024+0"), .init("DUMMY2", "800x600+1824+0"),
        ])
        defer { server.stop() }
        let before = x11.randrTally
        try app.refreshScreens()
        let cost = x11.randrTally - before
        // {monitors, resources}, then every output's and every CRTC's info together; gamma was read before.
        #expect(cost.roundTrips == 2)
        #expect(cost.requests >= 2 + outputs)
        #expect(app.screens.map(\.name) == ["DUMMY0", "DUMMY1", "DUMMY2"])
    }

    @Test("a re-read sees an output's EDID changed alone: the reader's memory of the last read compares the resources whole")
    func edidChangedAloneIsSeen() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [.init("DUMMY0", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let app = try server.makeApplication()
        let control = try server.controlConnection()
        defer { control.close() }
        let output = try #require(try control.readState().output(named: "DUMMY0"))
        let d = control.connection.display
        let atom = XInternAtom(d, "EDID", 0)
        // Another client sets the output's EDID: no mode, CRTC or output changes with it.
        func setEDID(_ maker: String, _ model: String) throws {
            var bytes = try #require(EDID.block(manufacturer: maker, model: model, serialNumber: "7", physicalSize: Size(width: 300, height: 200),
                                                timing: .hd1080p60))
            XRRChangeOutputProperty(d, RROutput(output.id), atom, Atom(XA_INTEGER), 8, PropModeReplace, &bytes, Int32(bytes.count))
            XSync(d, 0)
        }
        try setEDID("DEL", "FIRST")
        try app.refreshScreens()
        #expect(app.mainScreen.manufacturer == "DEL" && app.mainScreen.model == "FIRST")
        try app.refreshScreens()
        #expect(app.mainScreen.model == "FIRST")
        try setEDID("SAM", "SECOND")
        try app.refreshScreens()
        #expect(app.mainScreen.manufacturer == "SAM" && app.mainScreen.model == "SECOND")
    }

    @Test("a re-read reuses the replies that did not change, and parses again those another client changed")
    func replyMemoNeverStale() async throws {
        let (server, app, x11, outputs) = try await startDummy([
            .init("DUMMY0", "1024x768+0+0", primary: true), .init("DUMMY1", "800x600+1024+0"),
        ])
        defer { server.stop() }
        func memo() throws -> RandRBatch.ReplyMemo { try #require(x11.reader?.memo) }
        try app.refreshScreens()

        // Nothing changed: every reply (the monitors, the resources, each output's info and EDID, each
        // CRTC's info) is as last time's, none parsed.
        var before = try memo()
        try app.refreshScreens()
        #expect(try memo().misses == before.misses)
        #expect(try memo().hits - before.hits >= 2 + 2 * outputs)

        // Another client gives DUMMY0 another mode and moves DUMMY1: their replies are parsed again (by the
        // read its events make, or this one), and the screens are as the server has them.
        before = try memo()
        _ = try await server.xrandr(["--output", "DUMMY0", "--mode", "800x600", "--output", "DUMMY1", "--pos", "800x0"])
        try app.refreshScreens()
        #expect(try memo().misses > before.misses)
        #expect(app.screen(named: "DUMMY0")?.currentMode?.size == Size(width: 800, height: 600))
        #expect(app.screen(named: "DUMMY1")?.frame == Rect(x: 800, y: 0, width: 800, height: 600))

        // Turned off: its CRTC's reply changes, the screen goes.
        _ = try await server.xrandr(["--output", "DUMMY1", "--off"])
        try app.refreshScreens()
        #expect(app.screens.map(\.name) == ["DUMMY0"])
        before = try memo()
        try app.refreshScreens()
        #expect(try memo().misses == before.misses)
        #expect(app.screens.map(\.name) == ["DUMMY0"])
    }

    @Test("a real output's change after a virtual monitor's is still read in full")
    func realChangeAfterVirtual() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [.init("DUMMY0", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let app = try server.makeApplication()
        let log = ScreenNotificationLog(app)

        _ = try await server.xrandr(["--setmonitor", "VIRT-RT", "640/170x480/130+3000+0", "none"])
        try app.synchronize()
        #expect(log.summary == ["connect VIRT-RT"])

        // Another client changes a real output: RandR's events say the resources changed.
        _ = try await server.xrandr(["--output", "DUMMY0", "--mode", "800x600"])
        try app.synchronize()
        #expect(log.summary == ["connect VIRT-RT", "mode DUMMY0"])
        #expect(app.screen(named: "DUMMY0")?.currentMode?.size == Size(width: 800, height: 600))
        #expect(app.screen(named: "DUMMY0")?.frame == Rect(x: 0, y: 0, width: 800, height: 600))
    }
}
