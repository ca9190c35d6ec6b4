internal import CXlib
import Foundation
@testable import Multihead
@testable import MultiheadServerControl
@testable import MultiheadTesting
@testable import MultiheadX11
import Testing

/// Multihead's own Xorg driver (`.xorg`): a plug is a cable. The output is connected with the monitor's
/// EDID and lit in its mode; an unplug turns it off and disconnects it; clients see both as on hardware.
@MainActor
@Suite("Xorg with Multihead's driver: cables", .timeLimit(.minutes(3)))
struct XorgCableTests {
    /// An output as RandR reports it now: connected, its modes' sizes and its `EDID` property.
    static func output(_ name: String, on server: VirtualServer) throws -> (connected: Bool, modes: [Size], edid: [UInt8]?) {
        let c = try server.controlConnection()
        c.probe()
        let state = try c.readState()
        let output = try #require(state.output(named: name))
        let edid = try c.fingerprint().outputProperties[output.id]?[UInt(XInternAtom(c.connection.display, "EDID", 0))]?.bytes
        return (output.connected, output.modes.compactMap { state.resources.modes[$0]?.mode.size }, edid)
    }

    @Test("16 outputs named as connectors, the layout's connected and lit, the rest disconnected")
    func outputsAtStart() async throws {
        let server = try await VirtualServer.start(.xorg, monitors: [
            .init("DP-1", "1920x1080+0+0", primary: true), .init("HDMI-3", "1280x720+1920+0"),
        ])
        defer { server.stop() }
        let state = try server.controlConnection().readState()
        #expect(state.outputs.map(\.name) == VirtualServer.cabledOutputs)
        #expect(state.outputs.filter(\.connected).map(\.name) == ["DP-1", "HDMI-3"])
        let app = try server.makeApplication()
        #expect(app.screens.map(\.name) == ["DP-1", "HDMI-3"])
        #expect(app.mainScreen.name == "DP-1" && app.mainScreen.model == "DP-1" && app.mainScreen.manufacturer == "MHD")
        #expect(app.screens.map { $0.currentMode?.size } == [Size(width: 1920, height: 1080), Size(width: 1280, height: 720)])
    }

    @Test("plug connects the cable with the monitor's EDID and lights it; unplug turns it off and pulls the cable; one notification each")
    func plugIsACable() async throws {
        let server = try await VirtualServer.start(.xorg, monitors: [.init("DP-1", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let app = try server.makeApplication()
        var events: [String] = []
        let observation = app.onScreenEvent { event in
            switch event {
            case .connect(let s): events.append("connect \(s.name)")
            case .disconnect(let s): events.append("disconnect \(s.name)")
            default: break
            }
        }
        defer { withExtendedLifetime(observation) {} }
        #expect(try Self.output("HDMI-1", on: server).connected == false)
        let dell = VirtualServer.MonitorIdentity(manufacturer: "DEL", model: "DELL U2720Q", serialNumber: "ABC123",
                                                 physicalSize: Size(width: 597, height: 336))
        try server.plug("HDMI-1", "2560x1440+1920+0", monitor: dell)
        try app.synchronize()
        let seen = try Self.output("HDMI-1", on: server)
        #expect(seen.connected && seen.modes == [Size(width: 2560, height: 1440)])
        let edid = try #require(seen.edid.flatMap(EDID.init))
        #expect(edid.manufacturer == "DEL" && edid.model == "DELL U2720Q" && edid.serialNumber == "ABC123")
        let screen = try #require(app.screen(named: "HDMI-1"))
        #expect(screen.manufacturer == "DEL" && screen.model == "DELL U2720Q" && screen.serialNumber == "ABC123")
        #expect(screen.physicalSize == Size(width: 597, height: 336) && screen.frame == Rect(x: 1920, y: 0, width: 2560, height: 1440))

        try server.unplug("HDMI-1")
        try app.synchronize()
        let gone = try Self.output("HDMI-1", on: server)
        #expect(!gone.connected && gone.modes.isEmpty && gone.edid == nil)
        #expect(app.screens.map(\.name) == ["DP-1"])
        #expect(events == ["connect HDMI-1", "disconnect HDMI-1"])
    }

    @Test("a raw RandR client gets RROutputChangeNotify with the connection, both ways")
    func rawClientSeesTheConnection() async throws {
        let server = try await VirtualServer.start(.xorg, monitors: [.init("DP-1", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let d = try #require(XOpenDisplay(server.display))
        defer { XCloseDisplay(d) }
        var base: Int32 = 0, errorBase: Int32 = 0
        #expect(XRRQueryExtension(d, &base, &errorBase) != 0)
        XRRSelectInput(d, mh_default_root_window(d), Int32(RROutputChangeNotifyMask))
        XSync(d, 0)
        let output = try #require(try server.controlConnection().readState().output(named: "DP-2")?.id)

        /// The connection states the client is told of for DP-2, in order, until one is `wanted` (a CRTC
        /// turned off is an output change too, still connected).
        func connections(until wanted: Int32) -> [Int32] {
            var seen: [Int32] = []
            var event = XEvent()
            while seen.last != wanted {
                // A bound for a failure only: each event is a fact the server sends at once.
                var fd = pollfd(fd: XConnectionNumber(d), events: Int16(POLLIN), revents: 0)
                if XPending(d) == 0 && poll(&fd, 1, 20_000) <= 0 { break }
                XNextEvent(d, &event)
                guard event.type == base + RRNotify else { continue }
                let change = withUnsafePointer(to: &event) { $0.withMemoryRebound(to: XRROutputChangeNotifyEvent.self, capacity: 1) { $0.pointee } }
                if change.subtype == RRNotify_OutputChange && UInt(change.output) == output { seen.append(Int32(change.connection)) }
            }
            return seen
        }
        try server.plug("DP-2", "1280x720+1920+0")
        #expect(connections(until: Int32(RR_Connected)) == [Int32(RR_Connected)])
        try server.unplug("DP-2")
        #expect(connections(until: Int32(RR_Disconnected)).last == Int32(RR_Disconnected))
    }

    @Test("the cable's properties take only what a cable can be: 0 or 1, an EDID of whole 128-byte blocks")
    func badCableValuesAreRefused() async throws {
        let server = try await VirtualServer.start(.xorg, monitors: [.init("DP-1", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        await #expect(throws: VirtualServerError.self) { _ = try await server.xrandr(["--output", "DP-2", "--set", "MULTIHEAD_CONNECTED", "2"]) }
        #expect(try Self.output("DP-2", on: server).connected == false)
        try server.plug("DP-2", "800x600+1920+0")
        // A plug with an EDID that has no mode of the frame's size says so.
        let small = try VirtualServer.MonitorIdentity().edid(preferred: Size(width: 1024, height: 768))
        #expect(throws: ServerControlError.self) { try server.controlConnection().plug("DP-3", frame: Rect(x: 0, y: 1080, width: 640, height: 480), edid: small) }
    }

    @Test("a 4K monitor (reduced blanking) and a monitor's further modes: the output lists the EDID's modes")
    func modesFromTheEDID() async throws {
        let server = try await VirtualServer.start(.xorg, monitors: [.init("DP-1", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        try server.plug("DP-2", "3840x2160+1920+0")
        #expect(try Self.output("DP-2", on: server).modes == [Size(width: 3840, height: 2160)])
        let monitor = VirtualServer.MonitorIdentity(model: "Office", modes: [ScreenMode(width: 1280, height: 720), ScreenMode(width: 1024, height: 768, refreshRate: 75)])
        try server.plug("HDMI-1", "1920x1080+5760+0", monitor: monitor)
        let modes = try Self.output("HDMI-1", on: server).modes
        #expect(modes.first == Size(width: 1920, height: 1080))
        #expect(Set(modes) == [Size(width: 1920, height: 1080), Size(width: 1280, height: 720), Size(width: 1024, height: 768)])
        let app = try server.makeApplication()
        let office = try #require(app.screen(named: "HDMI-1"))
        #expect(office.availableModes.contains { $0.size == Size(width: 1024, height: 768) && abs($0.refreshRate - 75) < 0.5 })
        // A mode no EDID can list is refused with the reason.
        let odd = VirtualServer.MonitorIdentity(modes: [ScreenMode(width: 1366, height: 768)])
        #expect(throws: ServerControlError.self) { try odd.edid(preferred: Size(width: 1920, height: 1080)) }
    }

    /// A monitor the kit makes an EDID for: its preferred size and rate, its further modes.
    struct Made: Sendable, CustomStringConvertible {
        var size: Size
        var rate: Double
        var modes: [ScreenMode] = []
        var description: String { "\(Int(size.width))x\(Int(size.height))@\(Int(rate)) + \(modes.count) modes" }
    }

    @Test("edid-decode --check passes every EDID the kit makes: sizes, rates, 4K, further modes",
          arguments: [Made(size: Size(width: 800, height: 600), rate: 60), Made(size: Size(width: 1920, height: 1080), rate: 60),
                      Made(size: Size(width: 2560, height: 1440), rate: 144), Made(size: Size(width: 3840, height: 2160), rate: 60),
                      Made(size: Size(width: 1920, height: 1200), rate: 60,
                           modes: [ScreenMode(width: 1280, height: 800), ScreenMode(width: 1024, height: 768, refreshRate: 75)]),
                      // A DisplayID block beside the base block: 5K, 8K, DCI 4K, 4K at 144 Hz, the largest.
                      Made(size: Size(width: 5120, height: 2880), rate: 60), Made(size: Size(width: 7680, height: 4320), rate: 60),
                      Made(size: Size(width: 4096, height: 2160), rate: 60), Made(size: Size(width: 3840, height: 2160), rate: 144),
                      Made(size: Size(width: 16384, height: 16384), rate: 15)])
    func edidDecodeChecks(made: Made) async throws {
        let tool = try #require(["/usr/bin/edid-decode", "/usr/local/bin/edid-decode"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                "edid-decode is missing (Debian package edid-decode; Scripts/setup installs it)")
        let bytes = try VirtualServer.MonitorIdentity(manufacturer: "DEL", model: "DELL U2720Q", serialNumber: "ABC123", modes: made.modes)
            .edid(preferred: made.size, refreshRate: made.rate)
        let file = NSTemporaryDirectory() + "mh-test-edid-\(UUID().uuidString.prefix(8)).bin"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let check = try ChildProcess.spawn(tool, ["--check", file])
        let (status, out, err) = await onOwnThread { check.collect() }
        #expect(status == 0, "\(String(decoding: out + err, as: UTF8.self))")
    }

    @Test("a warm --xorg server is reset to fresh: cables plugged by a test are pulled before the next")
    func warmServerPullsCables() async throws {
        let fb = Size(width: 7680, height: 4320 + 31)
        let layout = [VirtualServer.Monitor("DP-1", "1920x1080+0+0", primary: true)]
        let first = try await VirtualServer.start(.xorg, monitors: layout, framebuffer: fb)
        try first.plug("HDMI-2", "1280x720+1920+0", monitor: .init(manufacturer: "GSM", model: "LG TV"))
        _ = try await first.xrandr(["--output", "HDMI-4", "--set", "MULTIHEAD_CONNECTED", "1"])
        let display = first.display
        first.stop()
        let second = try await VirtualServer.start(.xorg, monitors: layout, framebuffer: fb)
        defer { second.stop() }
        #expect(second.isWarm && second.display == display, "the last reset refused left: \(ServerPool.shared.lastRefusal)")
        let state = try second.controlConnection().readState()
        #expect(state.outputs.filter(\.connected).map(\.name) == ["DP-1"])
        #expect(try Self.output("HDMI-2", on: second).edid == nil)
    }
}
