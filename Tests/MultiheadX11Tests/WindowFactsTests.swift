import Foundation
import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
import Testing

/// Windows as facts: what `windows()` says of another client's window (a GTK 3 window,
/// Tests/ToolkitClients/gtk-window.py) agrees with xwininfo, and `moveWindow` / `fullscreenWindow` put it
/// where asked, read back as frames and as the pixels the client drew there; with no window manager and
/// with openbox.
@MainActor
@Suite("Windows as facts: list, move and fullscreen another client's window", .timeLimit(.minutes(2)))
struct WindowFactsTests {
    static let layout: [VirtualServer.Monitor] = [.init("DP-1", "1024x768+0+0", primary: true), .init("DP-2", "800x600+1024+0")]

    @Test("No window manager: a GTK window listed as xwininfo sees it, moved to DP-2 and made fullscreen there; pixels agree")
    func withoutWindowManager() async throws {
        let server = try await VirtualServer.start(monitors: Self.layout)
        defer { server.stop() }
        let client = try WindowClient.start(title: "facts ü", colour: "336699", size: "300x200", environment: server.environment)
        defer { client.end() }
        #expect(await client.waitFor("drawn 300x200"))
        let control = try server.controlConnection()
        let w = try #require(try control.windows().first { $0.title == "facts ü" })
        #expect(w.appID == "Multihead-window")
        #expect(w.pid == client.pid)
        #expect(w.screen == "DP-1")
        #expect(w.state == .normal)
        #expect(try xwininfoFrame(w.id, server.environment) == w.frame)

        let moved = try control.moveWindow(w.id, to: "DP-2", frame: Rect(x: 10, y: 20, width: 400, height: 300))
        #expect(moved.frame == Rect(x: 1034, y: 20, width: 400, height: 300))
        #expect(moved.screen == "DP-2" && moved.state == .normal)
        #expect(try xwininfoFrame(w.id, server.environment) == moved.frame)
        #expect(await client.waitFor("drawn 400x300"))
        #expect(try control.pixel(x: 10, y: 20, on: "DP-2") == 0x336699)
        #expect(try control.pixel(x: 409, y: 319, on: "DP-2") == 0x336699)
        #expect(try control.pixel(x: 9, y: 20, on: "DP-2") != 0x336699)

        let full = try control.fullscreenWindow(w.id, on: "DP-2")
        #expect(full.frame == Rect(x: 1024, y: 0, width: 800, height: 600))
        #expect(full.state == .fullscreen && full.screen == "DP-2")
        #expect(await client.waitFor("drawn 800x600"))
        #expect(try control.pixel(x: 0, y: 0, on: "DP-2") == 0x336699)
        #expect(try control.pixel(x: 799, y: 599, on: "DP-2") == 0x336699)
        // Moved again: out of fullscreen, at DP-1's corner with the size it has.
        let back = try control.moveWindow(w.id, to: "DP-1")
        #expect(back.frame == Rect(x: 0, y: 0, width: 800, height: 600) && back.state == .normal)
    }

    @Test("Refusals: a window that is not a top-level one, a screen that does not exist, a frame X cannot carry")
    func refusals() async throws {
        let server = try await VirtualServer.start(monitors: Self.layout)
        defer { server.stop() }
        let control = try server.controlConnection()
        #expect(try control.windows().isEmpty)
        #expect(throws: ServerControlError.noSuchWindow("no top-level window 12345; `multihead windows` lists them")) {
            try control.moveWindow(12345, to: "DP-2")
        }
        let client = try WindowClient.start(title: "refused", colour: "993366", size: "200x100", environment: server.environment)
        defer { client.end() }
        #expect(await client.waitFor("drawn 200x100"))
        let w = try #require(try control.windows().first)
        #expect(throws: ScreenError.noSuchScreen("DP-9")) { try control.fullscreenWindow(w.id, on: "DP-9") }
        for bad in [Rect(x: 0, y: 0, width: 0, height: 10), Rect(x: .nan, y: 0, width: 10, height: 10),
                    Rect(x: 0, y: 40000, width: 10, height: 10), Rect(x: 0, y: 0, width: .infinity, height: 10)] {
            #expect(throws: ServerControlError.self) { try control.moveWindow(w.id, to: "DP-2", frame: bad) }
        }
        // Nothing moved.
        #expect(try control.windows().first?.frame == w.frame)
    }

    @Test("openbox: its clients listed, a window moved to DP-2 exactly, fullscreen fills DP-2, then DP-1; states as it sets them")
    func withOpenbox() async throws {
        let server = try await VirtualServer.start(monitors: Self.layout)
        defer { server.stop() }
        let openbox = try ChildProcess.spawn("/usr/bin/openbox", ["--sm-disable"], environment: server.environment, diesWithParent: true)
        defer { openbox.terminate(grace: 2) }
        let control = try server.controlConnection()
        #expect(try control.waitForRootProperty("_NET_SUPPORTING_WM_CHECK", within: 10))
        let client = try WindowClient.start(title: "managed", colour: "669933", size: "300x200", environment: server.environment)
        defer { client.end() }
        #expect(await client.waitFor("drawn 300x200"))
        let w = try #require(try control.windows().first { $0.title == "managed" })
        #expect(w.pid == client.pid && w.state == .normal)
        #expect(try xwininfoFrame(w.id, server.environment) == w.frame)

        let moved = try control.moveWindow(w.id, to: "DP-2", frame: Rect(x: 50, y: 60, width: 320, height: 240))
        #expect(moved.frame == Rect(x: 1074, y: 60, width: 320, height: 240))
        #expect(moved.screen == "DP-2")
        let full = try control.fullscreenWindow(w.id, on: "DP-2")
        #expect(full.frame == Rect(x: 1024, y: 0, width: 800, height: 600) && full.state == .fullscreen)
        #expect(await client.waitFor("drawn 800x600"))
        #expect(try control.pixel(x: 0, y: 0, on: "DP-2") == 0x669933)
        #expect(try control.pixel(x: 799, y: 599, on: "DP-2") == 0x669933)
        let other = try control.fullscreenWindow(w.id, on: "DP-1")
        #expect(other.frame == Rect(x: 0, y: 0, width: 1024, height: 768) && other.state == .fullscreen)
        // Out of fullscreen: the size openbox gives back, at DP-2's corner.
        let normal = try control.moveWindow(w.id, to: "DP-2")
        #expect(normal.state == .normal && normal.frame.origin == Point(x: 1024, y: 0) && normal.frame.size == Size(width: 320, height: 240), "\(normal.frame)")
    }
}

/// xwininfo's "Absolute upper-left" and size of a window.
func xwininfoFrame(_ id: UInt, _ environment: [String: String]) throws -> Rect? {
    let p = try ChildProcess.spawn("/usr/bin/xwininfo", ["-id", String(id)], environment: environment)
    let (status, out, _) = p.collect()
    guard status == 0 else { return nil }
    var values: [String: Double] = [:]
    for line in String(decoding: out, as: UTF8.self).split(separator: "\n") {
        let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2, let v = Double(parts[1]) { values[parts[0]] = v }
    }
    guard let x = values["Absolute upper-left X"], let y = values["Absolute upper-left Y"], let w = values["Width"], let h = values["Height"] else { return nil }
    return Rect(x: x, y: y, width: w, height: h)
}

/// Tests/ToolkitClients/gtk-window.py: a GTK 3 window of one colour, its lines read one at a time.
final class WindowClient: @unchecked Sendable {
    private let child: ChildProcess
    private let lines: PipeLines
    var pid: Int32 { child.pid }

    private init(child: ChildProcess) {
        self.child = child
        lines = PipeLines(child.stdout)
    }

    static func start(title: String, colour: String, size: String, environment: [String: String]) throws -> WindowClient {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ToolkitClients/gtk-window.py").path
        return WindowClient(child: try ChildProcess.spawn("/usr/bin/python3", [path, title, colour, size], environment: environment,
                                                          diesWithParent: true, withInput: true))
    }

    /// Reads lines until one is `line`; false when the client ended first.
    func waitFor(_ line: String) async -> Bool {
        await onOwnThread {
            while let next = self.lines.next() { if next == line { return true } }
            return false
        }
    }

    func end() { child.terminate(grace: 0, signal: SIGKILL) }
}
