import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11
import Testing

@MainActor
@Suite("Hotplug on Xorg with the dummy driver: real outputs, modes and refresh rates", .timeLimit(.minutes(3)))
struct XorgDummyTests {
    @Test("a layout of two outputs, then plug, mode change and unplug: one notification each")
    func outputsHotplug() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [
            .init("DUMMY0", "1920x1080+0+0", primary: true), .init("DUMMY1", "1280x720+1920+0"),
        ])
        defer { server.stop() }
        let app = try server.makeApplication()
        #expect(app.screens.map(\.name) == ["DUMMY0", "DUMMY1"])
        let second = try #require(app.screen(named: "DUMMY1"))
        #expect(second.outputs == ["DUMMY1"])
        #expect(second.frame == Rect(x: 1920, y: 0, width: 1280, height: 720))
        let hz = try #require(second.currentMode?.refreshRate)
        #expect(abs(hz - 60) < 1)
        #expect(app.mainScreen.availableModes.count > 1)
        let log = ScreenNotificationLog(app)

        try server.plug("DUMMY2", "1024x768+3200+0")
        // A barrier, not a wait: the server has answered, and every event it sent before is handled.
        try app.synchronize()
        #expect(log.summary == ["connect DUMMY2"])
        let third = try #require(app.screen(named: "DUMMY2"))
        #expect(third.frame == Rect(x: 3200, y: 0, width: 1024, height: 768))

        try server.setOutputMode("DUMMY2", width: 800, height: 600)
        // A barrier, not a wait: the server has answered, and every event it sent before is handled.
        try app.synchronize()
        #expect(log.summary == ["connect DUMMY2", "mode DUMMY2"])
        #expect(third.currentMode?.size == Size(width: 800, height: 600))
        #expect(app.screen(named: "DUMMY2") === third)

        try server.unplug("DUMMY2")
        // A barrier, not a wait: the server has answered, and every event it sent before is handled.
        try app.synchronize()
        #expect(log.summary == ["connect DUMMY2", "mode DUMMY2", "disconnect DUMMY2"])
        #expect(!third.isConnected && app.screens.map(\.name) == ["DUMMY0", "DUMMY1"])
    }

    @Test("the model switches an output to another of its modes, and sets its gamma brightness")
    func modeAndBrightnessThroughTheModel() async throws {
        let server = try await VirtualServer.start(.xorgDummy)
        defer { server.stop() }
        let app = try server.makeApplication()
        let screen = app.mainScreen
        #expect(screen.name == "DUMMY0")
        let target = try #require(screen.availableModes.first { $0.size == Size(width: 800, height: 600) })
        try screen.setCurrentMode(target)
        #expect(await app.run(until: { screen.currentMode == target }))
        #expect(screen.frame.size == Size(width: 800, height: 600))
        #expect(screen.snapshot.hasHardwareBrightness)
        screen.brightness = 0.4
        let fresh = try server.makeApplication()
        #expect(abs(fresh.mainScreen.brightness - 0.4) < 0.01)
        #expect(screen.softwareBrightness == 1)
    }

    @Test("windows are shown on an Xorg output as on Xvfb")
    func windowsOnXorg() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [.init("DUMMY0", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let app = try server.makeApplication()
        let w = Window(frame: Rect(x: 10, y: 10, width: 100, height: 100), screen: app.mainScreen)
        w.backgroundColor = .green
        w.isHidden = false
        var pixel: UInt32?
        #expect(await app.run(until: {
            pixel = try? server.screenshot(of: "DUMMY0").pixel(x: 50, y: 50)
            return pixel == Bitmap.rgb(.green)
        }))
    }

    @Test("a mode built from its values (no RandR id) is set on the output and read back")
    func modeByValue() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [.init("DUMMY0", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let app = try server.makeApplication()
        let screen = app.mainScreen
        let target = try #require(screen.availableModes.first { $0.size != screen.frame.size && !$0.isInterlaced && $0.size.width <= 1920 })
        let built = ScreenMode(size: target.size, refreshRate: target.refreshRate, isInterlaced: target.isInterlaced)
        try screen.setCurrentMode(built)
        try app.synchronize()
        #expect(screen.currentMode == built)
        #expect(screen.frame.size == target.size)
    }
}
