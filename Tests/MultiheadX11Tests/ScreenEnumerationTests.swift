import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11
import Testing

@MainActor
@Suite("Screens read from a real Xvfb", .timeLimit(.minutes(3)))
struct ScreenEnumerationTests {
    @Test("a 3-monitor layout is enumerated main first, then by (y, x), with frames and modes")
    func threeMonitors() async throws {
        let server = try await VirtualServer.start(monitors: [
            .init("RIGHT", "1280x1024+3200+0"),
            .init("MAIN", "1920x1080+0+0", primary: true),
            .init("LEFT-BELOW", "1280x720+0+1080"),
        ])
        defer { server.stop() }
        let app = try server.makeApplication()
        #expect(app.screens.map(\.name) == ["MAIN", "RIGHT", "LEFT-BELOW"])
        #expect(app.mainScreen.name == "MAIN")
        let right = try #require(app.screen(named: "RIGHT"))
        #expect(right.frame == Rect(x: 3200, y: 0, width: 1280, height: 1024))
        #expect(right.bounds == Rect(x: 0, y: 0, width: 1280, height: 1024))
        #expect(right.availableModes.map(\.size) == [Size(width: 1280, height: 1024)])
        #expect(right.currentMode?.size == Size(width: 1280, height: 1024))
        #expect(right.physicalSize == Size(width: 339, height: 271))
        #expect(right.outputs.isEmpty)
    }

    @Test("without a primary monitor, the one containing (0, 0) is main")
    func mainWithoutPrimary() async throws {
        let server = try await VirtualServer.start(monitors: [
            .init("B", "800x600+800+0"), .init("A", "800x600+0+0"),
        ])
        defer { server.stop() }
        let app = try server.makeApplication()
        #expect(app.screens.map(\.name) == ["A", "B"])
    }

    @Test("Xvfb's own output gives a monitor with the output's mode list and current mode")
    func outputBackedMonitor() async throws {
        let server = try await VirtualServer.start(monitors: [], framebuffer: Size(width: 2048, height: 1536))
        defer { server.stop() }
        let app = try server.makeApplication()
        #expect(app.screens.count == 1)
        let s = app.mainScreen
        #expect(s.name == "screen")
        #expect(s.outputs == ["screen"])
        #expect(s.currentMode?.size == Size(width: 2048, height: 1536))
        #expect(s.availableModes.contains { $0.size == Size(width: 2048, height: 1536) })
    }

    @Test("no DISPLAY and a display nobody serves are refused with the name, never another display")
    func unreachableDisplay() throws {
        #expect(throws: X11Error.cannotOpenDisplay(":987")) { try Application(backend: X11Backend(display: ":987")) }
    }
}
