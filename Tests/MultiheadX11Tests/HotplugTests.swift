import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11
import Testing

/// Counts the screen events one application posts, in order (through `onScreenEvent`, which follows each
/// notification).
@MainActor
final class ScreenNotificationLog {
    private(set) var entries: [(name: Notification.Name, screen: String)] = []
    private var observation: EventObservation?

    init(_ app: Application) {
        observation = app.onScreenEvent { [weak self] e in self?.entries.append((e.notificationName, e.screen.name)) }
    }

    func count(_ name: Notification.Name) -> Int { entries.filter { $0.name == name }.count }
    /// "connect NAME", "disconnect NAME", "mode NAME", "main NAME", "brightness NAME".
    var summary: [String] {
        entries.map { e in
            let kind = [Screen.didConnectNotification: "connect", Screen.didDisconnectNotification: "disconnect",
                        Screen.mainDidChangeNotification: "main", Screen.brightnessDidChangeNotification: "brightness"][e.name] ?? "mode"
            return "\(kind) \(e.screen)"
        }
    }
}

@MainActor
@Suite("Hotplug on a real Xvfb", .timeLimit(.minutes(3)))
struct HotplugTests {
    static let twoMonitors: [VirtualServer.Monitor] = [
        .init("MAIN", "1920x1080+0+0", primary: true), .init("EXT-1", "1280x720+1920+0"),
    ]

    @Test("plugging a monitor posts exactly one connect, with the right frame")
    func plugOnce() async throws {
        let server = try await VirtualServer.start(monitors: Self.twoMonitors)
        defer { server.stop() }
        let app = try server.makeApplication()
        let log = ScreenNotificationLog(app)
        try server.plug("EXT-2", "1024x768+3200+0")
        // A barrier, not a wait: the server has answered, and every event it sent before is handled.
        try app.synchronize()
        #expect(log.summary == ["connect EXT-2"])
        let s = try #require(app.screen(named: "EXT-2"))
        #expect(s.frame == Rect(x: 3200, y: 0, width: 1024, height: 768))
        #expect(app.screens.map(\.name) == ["MAIN", "EXT-1", "EXT-2"])
    }

    @Test("unplugging posts exactly one disconnect; the screen leaves `screens` and knows it")
    func unplugOnce() async throws {
        let server = try await VirtualServer.start(monitors: Self.twoMonitors)
        defer { server.stop() }
        let app = try server.makeApplication()
        let ext = try #require(app.screen(named: "EXT-1"))
        let log = ScreenNotificationLog(app)
        try server.unplug("EXT-1")
        // A barrier, not a wait: the server has answered, and every event it sent before is handled.
        try app.synchronize()
        #expect(log.summary == ["disconnect EXT-1"])
        #expect(!ext.isConnected)
        #expect(app.screens.map(\.name) == ["MAIN"])
    }

    @Test("a monitor redefined under the same name with a new frame is one mode change, same object")
    func redefineIsModeChange() async throws {
        let server = try await VirtualServer.start(monitors: Self.twoMonitors)
        defer { server.stop() }
        let app = try server.makeApplication()
        let ext = try #require(app.screen(named: "EXT-1"))
        let log = ScreenNotificationLog(app)
        try server.plug("EXT-1", "1600x900+1920+0")
        // A barrier, not a wait: the server has answered, and every event it sent before is handled.
        try app.synchronize()
        #expect(log.summary == ["mode EXT-1"])
        #expect(app.screen(named: "EXT-1") === ext)
        #expect(ext.frame == Rect(x: 1920, y: 0, width: 1600, height: 900))
        #expect(ext.currentMode?.size == Size(width: 1600, height: 900))
    }

    @Test("a new mode set on Xvfb's output is one modeDidChange with the new current mode")
    func outputModeChange() async throws {
        let server = try await VirtualServer.start(monitors: [], framebuffer: Size(width: 2048, height: 1536))
        defer { server.stop() }
        let app = try server.makeApplication()
        let screen = app.mainScreen
        let log = ScreenNotificationLog(app)
        try server.setOutputMode("screen", width: 1024, height: 768, refreshRate: 60)
        // A barrier, not a wait: the server has answered, and every event it sent before is handled.
        try app.synchronize()
        #expect(log.summary == ["mode screen"])
        #expect(screen.currentMode?.size == Size(width: 1024, height: 768))
        let hz = try #require(screen.currentMode?.refreshRate)
        #expect(abs(hz - 60) < 0.5)
        #expect(screen.frame.size == Size(width: 1024, height: 768))
    }

    @Test("setCurrentMode through the model reaches the server and comes back as one mode change")
    func setCurrentModeThroughModel() async throws {
        let server = try await VirtualServer.start(monitors: [], framebuffer: Size(width: 2048, height: 1536))
        defer { server.stop() }
        try server.setOutputMode("screen", width: 800, height: 600)
        try server.setOutputMode("screen", width: 2048, height: 1536)
        let app = try server.makeApplication()
        let screen = app.mainScreen
        let small = try #require(screen.availableModes.first { $0.size == Size(width: 800, height: 600) })
        let log = ScreenNotificationLog(app)
        try screen.setCurrentMode(small)
        try app.synchronize()
        #expect(screen.currentMode == small)
        #expect(log.summary == ["mode screen"])
        #expect(throws: ScreenError.self) { try screen.setCurrentMode(ScreenMode(width: 5, height: 5)) }
    }

    @Test("200 plug/unplug cycles: connects − disconnects equals the net change; the list equals the server's")
    func manyCycles() async throws {
        let server = try await VirtualServer.start(monitors: Self.twoMonitors)
        defer { server.stop() }
        let app = try server.makeApplication()
        let log = ScreenNotificationLog(app)
        var plugged = Set<String>()
        for i in 0..<200 {
            let name = "HOT-\(i % 7)"
            if plugged.contains(name) {
                try server.unplug(name)
                plugged.remove(name)
            } else {
                try server.plug(name, frame: Rect(x: Double(3200 + (i % 7) * 100), y: 0, width: 640, height: 480))
                plugged.insert(name)
            }
            if i % 10 == 0 { app.backend.processPendingEvents() }
        }
        let expected = Set(["MAIN", "EXT-1"]).union(plugged)
        #expect(await app.run(until: { Set(app.screens.map(\.name)) == expected }))
        let connects = log.count(Screen.didConnectNotification)
        let disconnects = log.count(Screen.didDisconnectNotification)
        #expect(connects - disconnects == plugged.count)
        #expect(log.count(Screen.modeDidChangeNotification) == 0)
        // The server's own list, read afresh by a second connection, equals the model's.
        let fresh = try server.makeApplication()
        #expect(fresh.screens.map(\.snapshot) == app.screens.map(\.snapshot))
    }

    @Test("the screen events also arrive as an AsyncSequence, in order")
    func asyncSequence() async throws {
        let server = try await VirtualServer.start(monitors: Self.twoMonitors)
        defer { server.stop() }
        let app = try server.makeApplication()
        let events = app.screenEvents()
        try server.plug("EXT-2", "800x600+3200+0")
        try app.synchronize()
        try server.unplug("EXT-2")
        try app.synchronize()
        var seen: [String] = []
        let reader = Task { @MainActor in
            for await e in events {
                switch e {
                case .connect(let s): seen.append("connect \(s.name)")
                case .disconnect(let s): seen.append("disconnect \(s.name)")
                default: seen.append("other")
                }
            }
        }
        defer { reader.cancel() }
        #expect(await app.run(until: { seen.count >= 2 }, timeout: .seconds(30)))
        #expect(seen == ["connect EXT-2", "disconnect EXT-2"])
    }
}
