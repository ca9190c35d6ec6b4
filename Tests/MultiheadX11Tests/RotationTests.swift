import Foundation
import Multihead
@testable import MultiheadServerControl
@testable import MultiheadTesting
@testable import MultiheadX11
import Testing

/// A portrait monitor: an output turned with RandR on Multihead's driver, seen turned by xrandr, the model,
/// GTK 4 and Qt 6; refused where a server cannot turn one.
@MainActor
@Suite("A turned monitor", .timeLimit(.minutes(3)))
struct RotationTests {
    @Test("a 1920x1080 monitor plugged turned left covers 1080x1920: xrandr, the model, GTK 4 and Qt 6 see it portrait; a mode change turns it again")
    func portraitMonitor() async throws {
        let server = try await VirtualServer.start(.xorg, monitors: [.init("DP-1", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let control = try server.controlConnection()
        try server.plug("HDMI-1", "1920x1080+1920+0", rotation: .left)
        let listed = try await server.xrandr([])
        #expect(listed.contains("HDMI-1 connected 1080x1920+1920+0 left"), "\(listed)")
        let app = try server.makeApplication()
        let screen = try #require(app.screen(named: "HDMI-1"))
        #expect(screen.frame == Rect(x: 1920, y: 0, width: 1080, height: 1920))
        #expect(screen.rotation == 90 && screen.currentMode?.size == Size(width: 1080, height: 1920))

        // GTK 4.8: "monitor CONNECTOR WxH+X+Y …"; Qt 6: "monitor NAME WxH+X+Y …" and its orientation.
        let gtk = try await PythonToolkitClient.listing("gtk4-monitors.py", environment: server.environment)
        #expect(gtk.contains { $0.hasPrefix("monitor HDMI-1 1080x1920+1920+0 ") }, "\(gtk)")
        let qt = try await PythonToolkitClient.listing("qt6-monitors.py", environment: server.environment.merging(["QT_QPA_PLATFORM": "xcb"]) { $1 })
        #expect(qt.contains { $0.hasPrefix("monitor HDMI-1 1080x1920+1920+0 ") }, "\(qt)")
        #expect(qt.contains("orientation HDMI-1 PortraitOrientation"), "\(qt)")

        // Turned the other way, then back: the mode stays the monitor's own.
        try control.setMode("HDMI-1", size: Size(width: 1920, height: 1080), rotation: .right)
        try app.synchronize()
        #expect(app.screen(named: "HDMI-1")?.rotation == 270)
        try control.setMode("HDMI-1", size: Size(width: 1920, height: 1080), rotation: .normal)
        try app.synchronize()
        #expect(app.screen(named: "HDMI-1")?.frame == Rect(x: 1920, y: 0, width: 1920, height: 1080))
        #expect(app.screen(named: "HDMI-1")?.rotation == 0)
        // A mode change that says nothing of the turn keeps it.
        try control.setMode("HDMI-1", size: Size(width: 1920, height: 1080), rotation: .inverted)
        try control.setMode("HDMI-1", size: Size(width: 1280, height: 720))
        try app.synchronize()
        #expect(app.screen(named: "HDMI-1")?.rotation == 180)
    }

    @Test("Xvfb's virtual monitors and the dummy driver's outputs cannot turn: refused, nothing plugged",
          arguments: [(VirtualServer.Kind.xvfb, "EXT-1"), (.xorgDummy, "DUMMY1")])
    func refusedWhereNothingTurns(kind: VirtualServer.Kind, name: String) async throws {
        let first = kind == .xvfb ? "MAIN" : "DUMMY0"
        let server = try await VirtualServer.start(kind, monitors: [.init(first, "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let control = try server.controlConnection()
        // The kit says so before anything changes, and the server's connection would too.
        #expect(!kind.canTurnMonitors)
        #expect {
            try server.plug(name, "1280x720+1024+0", rotation: .left)
        } throws: { error in
            "\(error)".contains("the \(kind.name) kind cannot turn a monitor")
        }
        #expect {
            try control.plug(name, frame: Rect(x: 1024, y: 0, width: 1280, height: 720), rotation: .left)
        } throws: { error in
            "\(error)".contains("cannot turn")
        }
        #expect(try control.screens().map(\.name) == [first])
    }

    @Test("on the wayland kind a monitor turns with the compositor's output: Xwayland and the model see it portrait, a mode change keeps the turn")
    func portraitOnWayland() async throws {
        let server = try await VirtualServer.start(.wayland, monitors: [.init("DP-1", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        #expect(VirtualServer.Kind.wayland.canTurnMonitors)
        try server.plug("SIDE", "1920x1080+1920+0", rotation: .left)
        let app = try server.makeApplication()
        let screen = try #require(app.screen(named: "SIDE"))
        #expect(screen.frame == Rect(x: 1920, y: 0, width: 1080, height: 1920))
        try server.setOutputMode("SIDE", width: 1280, height: 720)
        try app.synchronize()
        #expect(app.screen(named: "SIDE")?.frame == Rect(x: 1920, y: 0, width: 720, height: 1280))
        try server.setOutputMode("SIDE", width: 1280, height: 720, rotation: .normal)
        try app.synchronize()
        #expect(app.screen(named: "SIDE")?.frame == Rect(x: 1920, y: 0, width: 1280, height: 720))

        // Turned by an output manager (wlr-randr), not by the kit: a mode change keeps that turn too.
        try server.plug("HDMI-1", "1920x1080+3200+0")
        let wlrRandr = try #require(XServerLauncher.which("wlr-randr"), "wlr-randr is not installed")
        let child = try ChildProcess.spawn(wlrRandr, ["--output", "HDMI-1", "--transform", "270"], environment: server.environment)
        let (status, _, err) = await onOwnThread { child.collect() }
        #expect(status == 0, "\(String(decoding: err, as: UTF8.self))")
        try await app.waitUntil { app.screen(named: "HDMI-1")?.frame == Rect(x: 3200, y: 0, width: 1080, height: 1920) }
        try server.setOutputMode("HDMI-1", width: 1280, height: 720)
        try await app.waitUntil { app.screen(named: "HDMI-1")?.frame.size == Size(width: 720, height: 1280) }
        #expect(app.screen(named: "HDMI-1")?.rotation == 270)
        let listing = try ChildProcess.spawn(wlrRandr, [], environment: server.environment)
        let (_, out, _) = await onOwnThread { listing.collect() }
        let hdmi = String(decoding: out, as: UTF8.self).components(separatedBy: "\nHDMI-1 ").last ?? ""
        #expect(hdmi.contains("Transform: 270"), "\(hdmi)")
    }
}
