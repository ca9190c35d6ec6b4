import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11
import Testing

/// The kit's wayland kind: Xwayland inside Multihead's compositor, its monitors the compositor's outputs.
/// Run in the GL views' process (Scripts/test), where few X servers are alive: wlroots 0.15 gives Xwayland
/// a display among :0…:32 only.
@MainActor
@Suite("The kit's wayland kind", .timeLimit(.minutes(3)))
struct WaylandKindTests {
    @Test("monitors keep the test's names through Xwayland; plug, mode and unplug each post one event; nothing stays")
    func namesEventsAndEnd() async throws {
        let server = try await VirtualServer.start(.wayland, monitors: [.init("MAIN", "1280x720+0+0", primary: true)])
        var stopped = false
        defer { if !stopped { server.stop() } }
        #expect(server.environment["WAYLAND_DISPLAY"]?.hasPrefix("wayland-") == true)
        let app = try server.makeApplication()
        let log = ScreenNotificationLog(app)
        #expect(app.screens.map(\.name) == ["MAIN"])
        #expect(app.mainScreen.name == "MAIN")

        try server.plug("TV", "1920x1080+1280+0")
        try app.synchronize()
        #expect(log.summary == ["connect TV"])
        let tv = try #require(app.screens.first { $0.name == "TV" })
        #expect(tv.frame == Rect(x: 1280, y: 0, width: 1920, height: 1080))
        #expect(app.mainScreen.name == "MAIN")
        // Any X client sees the same names (the compositor's outputs are DP-1 and DP-2 underneath).
        let listed = try await server.xrandr(["--listmonitors"])
        let names = listed.split(separator: "\n").dropFirst().compactMap { line in
            line.split(separator: " ").dropFirst().first.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "*+")) }
        }
        #expect(names == ["MAIN", "TV"], "\(listed)")

        try server.setOutputMode("TV", width: 1280, height: 720)
        try app.synchronize()
        #expect(log.summary == ["connect TV", "mode TV"])
        #expect(app.screens.first { $0.name == "TV" }?.bounds.size == Size(width: 1280, height: 720))

        try server.unplug("TV")
        try app.synchronize()
        #expect(log.summary == ["connect TV", "mode TV", "disconnect TV"])
        #expect(app.screens.map(\.name) == ["MAIN"])
        #expect(throws: ScreenError.self) { try server.screenshot(of: "TV") }

        let compositor = server.pid
        server.stop()
        stopped = true
        #expect(kill(compositor, 0) != 0, "the compositor outlived stop()")
    }

    @Test("a monitor named as a connector an earlier monitor took gets another; both show under their names")
    func connectorNamesDoNotCollide() async throws {
        // MAIN takes DP-1 first; the monitor named DP-1 then gets the next free connector.
        let server = try await VirtualServer.start(.wayland, monitors: [.init("MAIN", "800x600+0+0", primary: true),
                                                                        .init("DP-1", "640x480+800+0")])
        defer { server.stop() }
        let app = try server.makeApplication()
        #expect(Set(app.screens.map(\.name)) == ["MAIN", "DP-1"])
        #expect(app.screens.first { $0.name == "DP-1" }?.frame == Rect(x: 800, y: 0, width: 640, height: 480))
        try server.unplug("DP-1")
        try server.plug("TV", "1024x768+800+0")
        try app.synchronize()
        #expect(Set(app.screens.map(\.name)) == ["MAIN", "TV"])
    }

    @Test("a window of the app shows on the compositor's output, where the app put it")
    func windowPixels() async throws {
        let server = try await VirtualServer.start(.wayland, monitors: [.init("DP-1", "800x600+0+0", primary: true)])
        defer { server.stop() }
        let app = try server.makeApplication()
        let window = Window(frame: Rect(x: 100, y: 50, width: 200, height: 100), screen: app.mainScreen)
        window.backgroundColor = .green
        window.isHidden = false
        try app.synchronize()
        let shot = try server.screenshot(of: "DP-1")
        #expect(shot.width == 800 && shot.height == 600)
        #expect(shot.pixel(x: 200, y: 100) == Bitmap.rgb(.green))
        #expect(shot.pixel(x: 50, y: 25) != Bitmap.rgb(.green))
        #expect(try server.pixel(x: 299, y: 149, on: "DP-1") == Bitmap.rgb(.green))
    }

    @Test("a tap through XTest into Xwayland reaches the app's view under it")
    func tapReachesTheApp() async throws {
        let server = try await VirtualServer.start(.wayland, monitors: [.init("DP-1", "800x600+0+0", primary: true)])
        defer { server.stop() }
        let app = try server.makeApplication()
        let w = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300), screen: app.mainScreen)
        w.backgroundColor = .white
        let target = TouchRecorder(frame: Rect(x: 100, y: 100, width: 50, height: 50))
        w.addSubview(target)
        w.isHidden = false
        try app.synchronize()
        try server.tap(at: Point(x: 120, y: 130))
        #expect(await app.run(until: { target.log.count >= 2 }))
        #expect(target.log == ["began (20.5, 30.5)", "ended"])
    }

    @Test("MULTIHEAD_KIT_KIND names a kind by its name; unset or empty is Xvfb; any other word is invalidOption")
    func kindFromTheEnvironment() throws {
        #expect(try VirtualServer.kind(named: nil) == .xvfb)
        #expect(try VirtualServer.kind(named: "") == .xvfb)
        for kind in VirtualServer.Kind.all + [.wayland] {
            let named = try VirtualServer.kind(named: kind.name)
            #expect(named == kind)
        }
        #expect(throws: VirtualServerError.invalidOption(
            "MULTIHEAD_KIT_KIND=Wayland names no kind of server (xvfb, xorg, xorg-dummy, wayland)")) {
            try VirtualServer.kind(named: "Wayland")
        }
        // The task's own kind comes first.
        let kind = try VirtualServer.$defaultKind.withValue(.xorgDummy) { try VirtualServer.kindForThisTask() }
        #expect(kind == .xorgDummy)
    }
}
