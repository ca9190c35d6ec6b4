import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11

@MainActor
func benchScreens(_ server: VirtualServer) throws {
    let app = try server.makeApplication()
    let n = 2000
    var t: [Double] = []
    for _ in 0..<n { t.append(try micros { try app.refreshScreens() }) }
    row("enumerate screens and modes (3 monitors), median of \(n)", median(t), try baseline(["enumerate", "\(n)"], environment: server.environment))
}

@MainActor
func benchHotplug(_ server: VirtualServer) throws {
    let app = try server.makeApplication()
    let control = try ServerControl(display: server.display)
    var notified = 0
    let token = NotificationCenter.default.addObserver(forName: Screen.didConnectNotification, object: nil, queue: nil) { _ in
        MainActor.assumeIsolated { notified += 1 }
    }
    let token2 = NotificationCenter.default.addObserver(forName: Screen.didDisconnectNotification, object: nil, queue: nil) { _ in
        MainActor.assumeIsolated { notified += 1 }
    }
    defer { NotificationCenter.default.removeObserver(token); NotificationCenter.default.removeObserver(token2) }
    let n = 400
    var t: [Double] = []
    for i in 0..<n {
        let before = notified
        t.append(try micros {
            if i % 2 == 0 {
                try control.addMonitor(name: "BENCH-S", frame: Rect(x: 7000, y: 0, width: 640, height: 480), primary: false)
            } else {
                try control.deleteMonitor(name: "BENCH-S")
            }
            while notified == before { app.backend.processPendingEvents() }
        })
    }
    control.close()
    row("hotplug: XRRSetMonitor + XSync → notification, median of \(n)", median(t), try baseline(["hotplug", "\(n)"], environment: server.environment))
}


/// A test's screenshot of a 1920×1080 monitor (`server.screenshot(of:)`, through MIT-SHM on a local
/// server), against C's `XGetImage` of the same rectangle into an array of 0xRRGGBB.
@MainActor
func benchScreenshot(_ server: VirtualServer) throws {
    let n = 40
    var t: [Double] = []
    for _ in 0..<n { t.append(try micros { _ = try server.screenshot(of: "MAIN") }) }
    row("screenshot of a 1920×1080 monitor into pixels, median of \(n)", median(t) / 1000,
        try baseline(["getimage", "\(n)", "1920", "1080"], environment: server.environment) / 1000, unit: "ms")
}

/// From nothing to a first usable connection: the kit's private Xvfb (cookie, -displayfd) and an
/// application on it, against C spawning Xvfb and opening a display.
@MainActor
func benchServerStart() async throws {
    var t: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<15 {
        let start = clock.now
        // A new server each time, as a test asking for `fresh: true` gets (a pooled one would be warm).
        let server = try await VirtualServer.start(fresh: true)
        let app = try server.makeApplication()
        let d = clock.now - start
        t.append(Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15)
        app.backend.stop()
        server.stop()
    }
    row("start a private Xvfb and connect, median of 15", median(t), try baseline(["start", "15"]) / 1000, unit: "ms")
}

/// `multihead server` without a flag (its default kind: Xorg with Multihead's driver where it can start, the
/// layout's cables plugged, the default decided first) against `multihead server --xvfb`, each from its
/// start to its `MULTIHEAD_PID=` line (its last: the control socket is open), alternating, median of 15
/// each; after one of each to warm the driver's build and the disk cache. Then each is ended with SIGTERM.
@MainActor
func benchXorgServerStart(cli: String) async throws {
    func toPIDLine(_ flags: [String]) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let child = try ChildProcess.spawn(cli, ["server", "--monitors", "1920x1080,1280x720"] + flags, diesWithParent: true)
        let seen = await onOwnThread { () -> Bool in
            var line: [UInt8] = [], b: UInt8 = 0
            while read(child.stdout, &b, 1) == 1 {
                if b != UInt8(ascii: "\n") { line.append(b); continue }
                if line.starts(with: Array("MULTIHEAD_PID=".utf8)) { return true }
                line = []
            }
            return false
        }
        let d = clock.now - start
        child.terminate()
        guard seen else { throw DocumentedTestFailed(white: false, released: false) }
        return Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15
    }
    _ = try await toPIDLine([])
    _ = try await toPIDLine(["--xvfb"])
    var standard: [Double] = [], xvfb: [Double] = []
    for _ in 0..<15 {
        standard.append(try await toPIDLine([]))
        xvfb.append(try await toPIDLine(["--xvfb"]))
    }
    row("`multihead server` (its default kind) to its MULTIHEAD_PID= line, against `multihead server --xvfb`, median of 15",
        median(standard), median(xvfb), unit: "ms")
}
