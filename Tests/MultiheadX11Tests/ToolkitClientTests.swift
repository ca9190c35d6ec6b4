import Foundation
import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
import Testing

/// What GLFW and SDL, real toolkits built from Debian's `-dev` packages, see of the kit's servers. The
/// clients (Tests/ToolkitClients) print one line per monitor callback and a list on request.
@MainActor
@Suite("Other toolkits: GLFW 3 and SDL 2 clients against the kit's servers", .timeLimit(.minutes(2)))
struct ToolkitClientTests {
    @Test("Xvfb, the default server: SDL starts and GLFW sees a monitor and a primary; our screens are the layout")
    func xvfbStarts() async throws {
        let server = try await VirtualServer.start(monitors: [
            .init("MAIN", "1920x1080+0+0", primary: true), .init("EXT", "1280x720+1920+0"),
        ])
        defer { server.stop() }
        let dir = try ToolkitClient.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for kind in ToolkitClient.Kind.allCases {
            let client = try await ToolkitClient.start(kind, in: dir, environment: server.environment)
            defer { client.end() }
            let list = try #require(await client.list(), "\(kind) printed no list")
            #expect(list.failure == nil, "\(kind): \(list.failure ?? "")")
            #expect(list.monitors.count >= 1, "\(kind)")
            #expect(list.primary != nil, "\(kind)")
        }
        // RandR 1.5 clients (this package) see every monitor of the layout, the primary over `screen`.
        let app = try server.makeApplication()
        #expect(app.screens.map(\.name) == ["MAIN", "EXT"])
        #expect(app.screens.map(\.outputs) == [["screen"], []])
        #expect(app.screens.map { $0.currentMode?.size } == [Size(width: 1920, height: 1080), Size(width: 1280, height: 720)])
        // Unplugging MAIN hands `screen` (and primary) to EXT: output readers still see one display.
        try server.unplug("MAIN")
        try app.synchronize()
        #expect(app.screens.map(\.name) == ["EXT"])
        #expect(app.screens.first?.outputs == ["screen"])
        #expect(app.screens.first?.isPrimary == true)
        let sdl = try await ToolkitClient.start(.sdl, in: dir, environment: server.environment)
        defer { sdl.end() }
        #expect(await sdl.list()?.monitors.count == 1)
        // The last monitor gone: `screen` goes dark (its automatic monitor would be a framebuffer-sized
        // screen), the model shows its unannounced stand-in; the next plug lights `screen` again.
        try server.unplug("EXT")
        try app.synchronize()
        #expect(app.screens.map(\.isStandIn) == [true])
        try server.plug("AGAIN", "1024x768+0+0")
        try app.synchronize()
        #expect(app.screens.map(\.name) == ["AGAIN"])
        #expect(app.screens.first?.outputs == ["screen"])
        let again = try await ToolkitClient.start(.sdl, in: dir, environment: server.environment)
        defer { again.end() }
        #expect(await again.list()?.monitors.count == 1)
    }

    @Test("Xorg+dummy: GLFW sees plug, mode by poll, unplug, and the new primary after the primary goes")
    func glfwOnXorg() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [
            .init("DUMMY0", "1024x768+1024+0", primary: true), .init("DUMMY1", "1024x768+2048+0"),
        ])
        defer { server.stop() }
        let dir = try ToolkitClient.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let glfw = try await ToolkitClient.start(.glfw, in: dir, environment: server.environment)
        defer { glfw.end() }
        #expect(await glfw.list()?.primary == "DUMMY0")

        try server.plug("DUMMY2", "800x600+0+0")
        #expect(await glfw.waitFor("connected DUMMY2"))
        try server.setOutputMode("DUMMY2", width: 640, height: 480)
        #expect(await glfw.list()?.monitors.first { $0.hasPrefix("DUMMY2 ") }?.hasSuffix(" 640x480@60") == true)

        // The desktop's rule: the new main (first by y, then x) is DUMMY2, and it becomes RandR's primary.
        try server.unplug("DUMMY0")
        #expect(await glfw.waitFor("disconnected DUMMY0"))
        #expect(try server.controlConnection().primaryOutputName() == "DUMMY2")
        // A running GLFW keeps its own order (it puts only a new monitor first when it is the primary): its
        // primary is its first remaining monitor. A GLFW started now reads RandR's primary.
        #expect(await glfw.list()?.primary == "DUMMY1")
        let later = try await ToolkitClient.start(.glfw, in: dir, environment: server.environment)
        defer { later.end() }
        #expect(await later.list()?.primary == "DUMMY2")
    }

    @Test("Xorg+dummy, unplug --keep-primary: RandR's primary stays on the dark output; a new GLFW takes the first output")
    func glfwKeepPrimary() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [
            .init("DUMMY0", "1024x768+1024+0", primary: true), .init("DUMMY1", "1024x768+2048+0"), .init("DUMMY2", "800x600+0+0"),
        ])
        defer { server.stop() }
        let dir = try ToolkitClient.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let glfw = try await ToolkitClient.start(.glfw, in: dir, environment: server.environment)
        defer { glfw.end() }
        #expect(await glfw.list()?.primary == "DUMMY0")
        try server.unplug("DUMMY0", keepPrimary: true)
        #expect(await glfw.waitFor("disconnected DUMMY0"))
        #expect(try server.controlConnection().primaryOutputName() == "DUMMY0")
        // A GLFW started now finds no lit primary and lists outputs in the server's order: DUMMY1 first,
        // not DUMMY2, which a desktop would have made primary.
        let later = try await ToolkitClient.start(.glfw, in: dir, environment: server.environment)
        defer { later.end() }
        #expect(await later.list()?.primary == "DUMMY1")
    }

    @Test("Xorg with Multihead's driver: SDL sees the cable both ways and names the display from the EDID; GLFW sees both")
    func cableOnXorg() async throws {
        let server = try await VirtualServer.start(.xorg, monitors: [.init("DP-1", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let dir = try ToolkitClient.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sdl = try await ToolkitClient.start(.sdl, in: dir, environment: server.environment)
        defer { sdl.end() }
        let glfw = try await ToolkitClient.start(.glfw, in: dir, environment: server.environment)
        defer { glfw.end() }
        try server.plug("HDMI-1", "2560x1440+1920+0", monitor: .init(manufacturer: "DEL", model: "DELL U2720Q", physicalSize: Size(width: 597, height: 336)))
        // SDL 2 names a display by the EDID's model and its diagonal in inches.
        #expect(await sdl.waitFor("connected DELL U2720Q 27\""))
        #expect(await glfw.waitFor("connected HDMI-1"))
        try server.unplug("HDMI-1")
        #expect(await sdl.waitFor("disconnected 1"))
        #expect(await glfw.waitFor("disconnected HDMI-1"))
        #expect(await sdl.list()?.monitors.count == 1)
    }

    @Test("Xorg+dummy: SDL sees a plugged monitor (SDL_DISPLAYEVENT_CONNECTED)")
    func sdlOnXorg() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [.init("DUMMY0", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let dir = try ToolkitClient.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sdl = try await ToolkitClient.start(.sdl, in: dir, environment: server.environment)
        defer { sdl.end() }
        #expect(await sdl.list()?.monitors.count == 1)
        try server.plug("DUMMY1", "800x600+1024+0")
        #expect(await sdl.waitFor("connected "))
        #expect(await sdl.list()?.monitors.count == 2)
    }
}

/// One of the C clients in Tests/ToolkitClients, compiled with `cc` and `pkg-config`, run with a server's
/// environment; its output read line by line. Spawned by the kit's `ChildProcess` (which passes on no
/// other descriptor and reaps by PID), so that its end never waits on another child.
final class ToolkitClient: @unchecked Sendable {
    enum Kind: String, CaseIterable {
        case glfw, sdl
        var source: String { "\(rawValue)-monitors.c" }
        var pkgConfig: String { self == .glfw ? "glfw3" : "sdl2" }
    }

    /// What a client listed: "NAME WxH+X+Y WxH@HZ" per monitor, the primary's name, or why it failed.
    struct Listing {
        var monitors: [String] = []
        var primary: String?
        var failure: String?
    }

    private let child: ChildProcess
    private let lines: PipeLines

    private init(child: ChildProcess) {
        self.child = child
        lines = PipeLines(child.stdout)
    }

    /// A folder of its own for the built clients (the caller removes it).
    static func scratch() throws -> String {
        let dir = NSTemporaryDirectory() + "mh-toolkit-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Builds the client (Debian's libglfw3-dev / libsdl2-dev, which Scripts/setup installs) and starts it.
    static func start(_ kind: Kind, in dir: String, environment: [String: String]) async throws -> ToolkitClient {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ToolkitClients/\(kind.source)").path
        let binary = "\(dir)/\(kind.rawValue)-monitors"
        if !FileManager.default.fileExists(atPath: binary) {
            let build = try ChildProcess.spawn("/bin/sh", ["-c", "cc -o \"$1\" \"$2\" $(pkg-config --cflags --libs \(kind.pkgConfig))",
                                                           "build", binary, source])
            let (status, _, err) = await onOwnThread { build.collect() }
            guard status == 0 else {
                throw VirtualServerError.commandFailed(command: "cc \(kind.source)", output: String(decoding: err, as: UTF8.self))
            }
        }
        let child = try ChildProcess.spawn(binary, [], environment: environment.merging(["SDL_VIDEODRIVER": "x11"]) { $1 },
                                           diesWithParent: true, withInput: true)
        let client = ToolkitClient(child: child)
        // Its first list is printed at start; take it so that the next `list()` reads a fresh one.
        _ = await client.readListing()
        return client
    }

    /// Asks for the monitors now (GLFW and SDL handle their pending events first) and reads the answer.
    func list() async -> Listing? {
        if let fd = child.stdin {
            let line = Array("list\n".utf8)
            _ = write(fd, line, line.count)
        }
        return await readListing()
    }

    /// Reads lines until one starts with `prefix` (a callback's line); false when the client ended.
    func waitFor(_ prefix: String) async -> Bool {
        while let line = await nextLine() { if line.hasPrefix(prefix) { return true } }
        return false
    }

    private func readListing() async -> Listing? {
        var listing = Listing()
        while let line = await nextLine() {
            if line.hasPrefix("init-failed") { listing.failure = line; return listing }
            if line.hasPrefix("monitor ") { listing.monitors.append(String(line.dropFirst(8))) }
            if line.hasPrefix("primary ") { listing.primary = line == "primary none" ? nil : String(line.dropFirst(8)) }
            if line == "end" { return listing }
        }
        return nil
    }

    /// The next line the client printed, or nil once it ended.
    private func nextLine() async -> String? {
        await onOwnThread { self.lines.next() }
    }

    /// Ends it (SIGKILL: SDL turns SIGTERM into a quit event it would have to read), reaps it, closes its pipes.
    func end() {
        child.terminate(grace: 0, signal: SIGKILL)
    }
}
