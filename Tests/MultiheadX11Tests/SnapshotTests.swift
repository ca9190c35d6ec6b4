import Foundation
import Multihead
import MultiheadTesting
@testable import MultiheadX11
import Testing

@MainActor
@Suite("A one-shot snapshot over XCB alone, as `multihead screens` reads it", .timeLimit(.minutes(3)))
struct SnapshotTests {
    @Test("Xvfb: the snapshot is the application's screens, the scale from Xft.dpi included, in two batches")
    func xvfbSnapshotIsTheModel() async throws {
        let server = try await VirtualServer.start(monitors: [
            .init("LEFT", "800x600+0+0", primary: true), .init("RIGHT", "1024x768+800+0"),
        ])
        defer { server.stop() }
        try await server.mergeResources(["Xft.dpi": "192"])
        var cost = RandRBatch.Tally()
        let snapshot = try X11Backend.snapshot(display: server.display, timeout: 5, tally: &cost)
        // Monitors, resources and the resource database; then outputs, CRTCs and names. Virtual monitors
        // have no CRTC, so no gamma.
        #expect(cost.roundTrips == 2)
        #expect(snapshot.map(\.name) == ["LEFT", "RIGHT"])
        #expect(snapshot.allSatisfy { $0.scale == 2 })
        let app = try server.makeApplication()
        #expect(ScreenDiff.ordered(snapshot) == app.screens.map(\.snapshot))
    }

    @Test("Xorg+dummy: outputs, modes, refresh rates and the gamma ramp read as the application reads them")
    func xorgSnapshotIsTheModel() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [
            .init("DUMMY0", "1920x1080+0+0", primary: true), .init("DUMMY1", "1280x720+1920+0"),
        ])
        defer { server.stop() }
        let snapshot = try X11Backend.snapshot(display: server.display)
        let app = try server.makeApplication()
        #expect(ScreenDiff.ordered(snapshot) == app.screens.map(\.snapshot))
        let second = try #require(snapshot.first { $0.name == "DUMMY1" })
        #expect(second.outputs == ["DUMMY1"] && second.modes.count > 1 && second.hasHardwareBrightness)
        #expect(abs((second.currentMode?.refreshRate ?? 0) - 60) < 1)
    }

    @Test("a stopped server: the snapshot says it is not responding, and closing a connection to it returns")
    func stoppedServer() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "800x600+0+0", primary: true)])
        defer { kill(server.pid, SIGCONT); server.stop() }
        let c = try XConnection(name: server.display, timeout: 0.5)
        kill(server.pid, SIGSTOP)
        #expect(throws: X11Error.notResponding(server.display)) { try X11Backend.snapshot(display: server.display, timeout: 0.5) }
        // XCloseDisplay waits for the server's answer: bounded, it ends when the watchdog cuts the connection.
        c.close()
        #expect(c.watchdog.fired)
    }

    @Test("no server there: cannot open the display")
    func noServer() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "800x600+0+0", primary: true)])
        let display = server.display
        server.stop()
        #expect(throws: X11Error.cannotOpenDisplay(display)) { try X11Backend.snapshot(display: display) }
    }
}

@Suite("IDTable, the resource-id table, a pure value")
struct IDTableTests {
    @Test("lookups, replacement, removal and merging, kept in id order")
    func table() {
        var t: IDTable<String> = [7: "seven", 3: "three"]
        t[5] = "five"
        t[3] = "THREE"
        #expect(t.entries.map(\.id) == [3, 5, 7])
        #expect(t[3] == "THREE" && t[4] == nil && t[7] == "seven")
        t[5] = nil
        t[9] = nil
        #expect(t.entries.map(\.id) == [3, 7])
        t.merge([1: "one", 7: "SEVEN"])
        #expect(t.entries.map(\.value) == ["one", "THREE", "SEVEN"])
        var gamma: IDTable<Double?> = [:]
        gamma[2] = .some(nil)
        #expect(gamma[2] != nil && gamma[2] == .some(nil) && gamma[3] == nil && !gamma.isEmpty)
        #expect([UInt(4), 2, 4, 1, 2].uniqued() == [4, 2, 1])
        var set = IDSet()
        set.insert(8)
        set.insert(8)
        set.insert(2)
        set.remove(2)
        #expect(set.contains(8) && !set.contains(2) && set.entries.count == 1)
    }
}
