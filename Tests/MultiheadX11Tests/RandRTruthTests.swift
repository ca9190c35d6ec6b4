import Foundation
import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Testing

/// Every mode's rate as `xrandr --verbose` prints it ("60.00"), by mode ID, and whether it is interlaced.
func xrandrModeRates(_ verbose: String) -> [UInt64: (rate: String, interlaced: Bool)] {
    var result: [UInt64: (String, Bool)] = [:]
    var current: (UInt64, Bool)?
    for line in verbose.split(separator: "\n") {
        if let open = line.range(of: " (0x"), let close = line[open.upperBound...].firstIndex(of: ")"),
           let id = UInt64(line[open.upperBound..<close], radix: 16), line.contains("MHz") {
            current = (id, line.contains("Interlace"))
        } else if let c = current, line.contains("v: height"), let clock = line.range(of: "clock") {
            result[c.0] = (line[clock.upperBound...].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "Hz", with: ""), c.1)
            current = nil
        }
    }
    return result
}

/// The modelines a demanding user defined: 1080i, 480i, 143.86 Hz, 59.94 Hz (148.352 MHz) and double-scan.
let edgeModelines: [[String]] = [
    ["1080i", "74.25", "1920", "2008", "2052", "2200", "1080", "1084", "1094", "1125", "interlace", "+hsync", "+vsync"],
    ["480i", "13.5", "720", "739", "801", "858", "480", "488", "494", "525", "interlace", "-hsync", "-vsync"],
    ["1080p144", "332.75", "1920", "1968", "2000", "2080", "1080", "1083", "1088", "1112", "+hsync", "-vsync"],
    ["1080p5994", "148.352", "1920", "2008", "2052", "2200", "1080", "1084", "1089", "1125", "+hsync", "+vsync"],
    ["320x240d", "12.588", "320", "336", "384", "400", "240", "245", "246", "262", "doublescan"],
]

@MainActor
func defineEdgeModes(_ server: VirtualServer, on output: String) async throws {
    for m in edgeModelines {
        _ = try await server.xrandr(["--newmode"] + m)
        _ = try await server.xrandr(["--addmode", output, m[0]])
    }
}

@MainActor
@Suite("RandR at the edges: rates, chosen modes, main changes, no phantoms", .timeLimit(.minutes(3)))
struct RandRTruthTests {
    @Test("every mode's rate and interlace flag match xrandr --verbose to 0.01 Hz")
    func ratesMatchXrandr() async throws {
        let server = try await VirtualServer.start(.xorgDummy)
        defer { server.stop() }
        try await defineEdgeModes(server, on: "DUMMY0")
        let app = try server.makeApplication()
        try app.synchronize()
        let truth = xrandrModeRates(try await server.xrandr(["--verbose"]))
        let modes = app.mainScreen.availableModes
        #expect(modes.count >= 5 + 1)
        for m in modes {
            let t = try #require(truth[m.backendID], "mode \(m.backendID) missing from xrandr")
            #expect(String(format2: m.refreshRate) == t.rate, "\(m)")
            #expect(m.isInterlaced == t.interlaced, "\(m)")
        }
        let i1080 = try #require(modes.first { $0.isInterlaced && $0.size.height == 1080 })
        #expect(String(format2: i1080.refreshRate) == "60.00")
        #expect(modes.contains { String(format2: $0.refreshRate) == "143.86" })
        #expect(modes.contains { String(format2: $0.refreshRate) == "60.06" && $0.size.width == 320 })
    }

    @Test("the mode asked for is the mode set: by rate the nearest, else the fastest progressive; no match lists the rates")
    func modeAskedIsModeSet() async throws {
        let server = try await VirtualServer.start(.xorgDummy)
        defer { server.stop() }
        try await defineEdgeModes(server, on: "DUMMY1")
        _ = try await server.xrandr(["--newmode", "1920x1080_60.00", "173.00", "1920", "2048", "2248", "2576", "1080", "1083", "1088", "1120", "-hsync", "+vsync"])
        _ = try await server.xrandr(["--addmode", "DUMMY1", "1920x1080_60.00"])
        try server.plug("DUMMY1", "1920x1080+1024+0")
        let app = try server.makeApplication()
        let screen = try #require(app.screen(named: "DUMMY1"))
        #expect(screen.currentMode.map { String(format2: $0.refreshRate) } == "143.86")
        #expect(screen.currentMode?.isInterlaced == false)
        let m144 = try server.setOutputMode("DUMMY1", width: 1920, height: 1080, refreshRate: 144)
        #expect(String(format2: m144.refreshRate) == "143.86")
        let m5994 = try server.setOutputMode("DUMMY1", width: 1920, height: 1080, refreshRate: 59.94)
        try app.synchronize()
        #expect(screen.currentMode?.backendID == m5994.backendID && String(format2: m5994.refreshRate) == "59.94")
        let i = try server.setOutputMode("DUMMY1", width: 1920, height: 1080, refreshRate: 60)
        // Asked by rate, the nearest is 1080i at 60.00 Hz: interlaced is chosen only when asked like this.
        #expect(i.isInterlaced && String(format2: i.refreshRate) == "60.00")
        do {
            try server.setOutputMode("DUMMY1", width: 1920, height: 1080, refreshRate: 75)
            Issue.record("a rate nothing has was accepted")
        } catch let e as ScreenError {
            #expect(e.description.contains("59.94 Hz, 59.96 Hz, 60 Hz, 143.86 Hz"), "\(e)")
        }
    }

    @Test("setCurrentMode grows the screen when the new mode needs room")
    func setModeGrowsTheScreen() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [
            .init("DUMMY0", "640x480+0+0", primary: true), .init("DUMMY1", "640x480+640+0"),
        ])
        defer { server.stop() }
        let app = try server.makeApplication()
        let screen = try #require(app.screen(named: "DUMMY1"))
        let big = try #require(screen.availableModes.first { $0.size == Size(width: 1024, height: 768) })
        let log = ScreenNotificationLog(app)
        try screen.setCurrentMode(big)
        try app.synchronize()
        #expect(log.summary == ["mode DUMMY1"])
        #expect(screen.frame == Rect(x: 640, y: 0, width: 1024, height: 768))
        #expect(try server.screenshot(of: "DUMMY1").width == 1024)
    }

    @Test("the primary changing is one mainDidChange each: --primary, --noprimary, plug --primary")
    func mainChanges() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [
            .init("DUMMY0", "1024x768+0+0", primary: true), .init("DUMMY1", "1024x768+1024+0"),
        ])
        defer { server.stop() }
        let app = try server.makeApplication()
        let log = ScreenNotificationLog(app)
        _ = try await server.xrandr(["--output", "DUMMY1", "--primary"])
        try app.synchronize()
        #expect(log.summary == ["main DUMMY1"] && app.mainScreen.name == "DUMMY1")
        #expect(app.screens.map(\.name) == ["DUMMY1", "DUMMY0"])
        _ = try await server.xrandr(["--output", "DUMMY1", "--noprimary"])
        try app.synchronize()
        // No primary: the monitor at the desktop's origin is main again.
        #expect(log.summary == ["main DUMMY1", "main DUMMY0"])
        try server.plug("DUMMY2", "800x600+2048+0", primary: true)
        try app.synchronize()
        #expect(log.summary == ["main DUMMY1", "main DUMMY0", "connect DUMMY2", "main DUMMY2"])
    }

    @Test("all outputs off at once: disconnects only, a stand-in the root's size; then one on: one connect")
    func noPhantomScreens() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [
            .init("DUMMY0", "1024x768+0+0", primary: true), .init("DUMMY1", "800x600+1024+0"), .init("DUMMY2", "800x600+1824+0"),
        ])
        defer { server.stop() }
        let app = try server.makeApplication()
        let log = ScreenNotificationLog(app)
        _ = try await server.xrandr((0..<16).flatMap { ["--output", "DUMMY\($0)", "--off"] })
        try app.synchronize()
        #expect(log.summary == ["disconnect DUMMY0", "disconnect DUMMY1", "disconnect DUMMY2"])
        #expect(app.screens.count == 1 && app.mainScreen.isStandIn)
        let root = try server.controlConnection().rootSize
        #expect(app.mainScreen.frame.size == root)
        _ = try await server.xrandr(["--output", "DUMMY1", "--mode", "800x600", "--pos", "0x0"])
        try app.synchronize()
        #expect(log.summary.suffix(2) == ["connect DUMMY1", "main DUMMY1"])
        #expect(log.count(Screen.didConnectNotification) - log.count(Screen.didDisconnectNotification) == 1 - 3)
        #expect(app.screens.map(\.name) == ["DUMMY1"])
    }

    @Test("a move is a mode change whose previous frame differs and whose mode does not")
    func moveSaysSo() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [
            .init("DUMMY0", "1024x768+0+0", primary: true), .init("DUMMY1", "800x600+1024+0"),
        ])
        defer { server.stop() }
        let app = try server.makeApplication()
        var seen: [ScreenEvent] = []
        let token = NotificationCenter.default.addObserver(forName: Screen.modeDidChangeNotification, object: nil, queue: nil) { n in
            nonisolated(unsafe) let n = n
            MainActor.assumeIsolated {
                if let s = n.object as? Screen, s.application === app, let before = n.userInfo?[Screen.previousDescriptionKey] as? ScreenDescription {
                    seen.append(.modeChange(s, previous: before))
                }
            }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        _ = try await server.xrandr(["--output", "DUMMY1", "--pos", "1024x100"])
        try app.synchronize()
        // xrandr may pass through an intermediate layout when its steps are read apart under load; every
        // change is DUMMY1's, the first starts where it was, the last ends where it went, the mode never changes.
        try #require(!seen.isEmpty)
        guard case .modeChange(let s, let before) = seen[0], case .modeChange(let last, _) = seen[seen.count - 1] else { return }
        #expect(seen.allSatisfy { $0.screen.name == "DUMMY1" })
        #expect(last.frame.origin == Point(x: 1024, y: 100))
        #expect(before.frame.origin == Point(x: 1024, y: 0) && before.currentMode == s.currentMode)
    }

    @Test("a virtual plug on an Xvfb with only its own `screen` takes `screen`'s place: no overlapping phantom, the output still lit")
    func xvfbScreenNeverLingers() async throws {
        let server = try await VirtualServer.start(monitors: [])
        defer { server.stop() }
        let app = try server.makeApplication()
        #expect(app.screens.map(\.name) == ["screen"])
        try server.plug("MAIN", "1920x1080+0+0", primary: true)
        try app.synchronize()
        #expect(app.screens.map(\.name) == ["MAIN"])
        #expect(app.screens.first?.outputs == ["screen"])
        #expect(app.screens.first?.availableModes.map(\.size) == [Size(width: 1920, height: 1080)])
        let fresh = try await VirtualServer.start()
        defer { fresh.stop() }
        #expect(try fresh.makeApplication().screens.map(\.name) == ["VIRTUAL-1"])
    }

    @Test("a screenshot after a plug grew the screen reads the root's real size")
    func screenshotAfterGrowth() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [.init("DUMMY0", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        #expect(try server.screenshot(of: "DUMMY0").width == 1024)
        try server.plug("DUMMY1", "800x600+1024+0")
        let shot = try server.screenshot(of: "DUMMY1")
        #expect(shot.width == 800 && shot.height == 600)
    }

    @Test("a test that waits for each event between plug and unplug sees every one")
    func everyEventSeenWhenPaced() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        let app = try server.makeApplication()
        let log = ScreenNotificationLog(app)
        for i in 0..<50 {
            try server.plug("PACED", frame: Rect(x: 1920, y: 0, width: Double(640 + i), height: 480))
            try app.synchronize()
            try server.unplug("PACED")
            try app.synchronize()
        }
        #expect(log.count(Screen.didConnectNotification) == 50)
        #expect(log.count(Screen.didDisconnectNotification) == 50)
        #expect(log.entries.count == 100)
    }
}
