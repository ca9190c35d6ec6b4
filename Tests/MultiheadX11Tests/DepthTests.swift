import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11
import Testing

/// Servers we did not start may run at another depth than 24: 16-bit TrueColor draws right and reads back
/// in true colours; 8-bit PseudoColor is refused with a reason at the first window, never drawn black.
@MainActor
@Suite("Depth 16 and 8: true colours or a typed error, never silent black", .timeLimit(.minutes(3)))
struct DepthTests {
    /// Paints the root window a colour as a person would (`xsetroot -solid`), for screenshots to read back.
    func paintRoot(_ server: VirtualServer, _ color: String) async throws {
        let child = try ChildProcess.spawn("/usr/bin/xsetroot", ["-solid", color], environment: server.environment)
        let (status, _, err) = await onOwnThread { child.collect() }
        try #require(status == 0, "xsetroot: \(String(decoding: err, as: UTF8.self))")
    }

    @Test("depth 16: windows show their colours, screenshots read true colours", arguments: [true, false])
    func depth16(sharedMemory: Bool) async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)], depth: 16)
        defer { server.stop() }
        try await paintRoot(server, "red")
        #expect(try server.screenshot(of: "MAIN").pixel(x: 600, y: 400) == 0xFF0000)
        let app = try Application(backend: X11Backend(display: server.display, useSharedMemory: sharedMemory))
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 240), screen: app.mainScreen)
        window.backgroundColor = .blue
        let inner = View(frame: Rect(x: 10, y: 10, width: 100, height: 100))
        inner.backgroundColor = .green
        window.addSubview(inner)
        window.isHidden = false
        // Runs the app until the server shows the window (the run loop presents it), or 3 s.
        #expect(await app.run(until: { (try? server.screenshot(of: "MAIN"))?.pixel(x: 200, y: 200) == 0x0000FF }, timeout: .seconds(3)))
        #expect(app.connectionError == nil)
        let shot = try server.screenshot(of: "MAIN")
        #expect(shot.pixel(x: 200, y: 200) == 0x0000FF)
        #expect(shot.pixel(x: 50, y: 50) == 0x00FF00)
        #expect(shot.pixel(x: 600, y: 400) == 0xFF0000)
    }

    @Test("depth 8 PseudoColor: the first window is a typed error naming the depth; screenshots read the colormap")
    func depth8() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)], depth: 8)
        defer { server.stop() }
        try await paintRoot(server, "red")
        #expect(try server.screenshot(of: "MAIN").pixel(x: 10, y: 10) == 0xFF0000)
        let app = try server.makeApplication()
        #expect(app.connectionError == nil)
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 240), screen: app.mainScreen)
        window.backgroundColor = .blue
        window.isHidden = false
        #expect(await app.run(until: { app.connectionError != nil }, timeout: .seconds(3)))
        let error = try #require(app.connectionError as? X11Error)
        #expect(error == .unsupportedVisual(display: server.display, depth: 8, visualClass: "PseudoColor"))
        #expect(error.description.contains("depth 8 PseudoColor"))
        // Nothing was drawn: the root shows through, red, not a black window.
        #expect(try server.screenshot(of: "MAIN").pixel(x: 10, y: 10) == 0xFF0000)
    }
}

@MainActor
@Suite("multihead demo on a depth-8 server", .timeLimit(.minutes(3)))
struct DepthDemoTests {
    @Test("exits 69 saying which depth and visual it cannot draw on")
    func demoOnDepth8() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)], depth: 8)
        defer { server.stop() }
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("multihead").path
        let child = try ChildProcess.spawn(bin, ["demo"], environment: server.environment, diesWithParent: true)
        let (status, _, err) = await onOwnThread { child.collect() }
        #expect(status == 69)
        #expect(String(decoding: err, as: UTF8.self).contains("depth 8 PseudoColor"))
    }
}
