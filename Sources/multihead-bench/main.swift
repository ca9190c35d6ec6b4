// Scripts/bench: each benchmark runs the Swift API and the raw C/Xlib baseline (XlibBaseline) on the same
// work in the same run, and reports the ratio; these machines are noisy, ratios less so.
import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11

@MainActor
func median(_ v: [Double]) -> Double {
    let s = v.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

@MainActor
func micros(_ body: () throws -> Void) rethrows -> Double {
    let c = ContinuousClock()
    let t = c.now
    try body()
    let d = c.now - t
    return Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
}

/// Runs the C baseline and returns its median in µs.
@MainActor
func baseline(_ args: [String], environment: [String: String] = [:]) throws -> Double {
    let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("XlibBaseline")
    let p = Process()
    p.executableURL = bin
    p.arguments = args
    p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    guard let field = text.split(separator: " ").first(where: { $0.hasPrefix("median_us=") }),
          let v = Double(field.dropFirst("median_us=".count).trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw VirtualServerError.didNotStart(binary: "XlibBaseline", log: text)
    }
    return v
}

@MainActor
func row(_ name: String, _ swift: Double, _ c: Double, unit: String = "µs") {
    let ratio = c > 0 ? swift / c : .infinity
    print("| \(name) | \(String(format: "%.2f", swift)) \(unit) | \(String(format: "%.2f", c)) \(unit) | \(String(format: "%.2f", ratio))× |")
}

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

@MainActor
func benchStacking(windows n: Int) throws {
    let backend = InMemoryBackend()
    let app = try Application(backend: backend)
    var ws: [Window] = []
    ws.reserveCapacity(n)
    for i in 0..<n {
        let w = Window(frame: Rect(x: Double(i % 100), y: 0, width: 10, height: 10), screen: app.mainScreen)
        w.isHidden = false
        ws.append(w)
    }
    let ops = 2000
    var rng = SystemRandomNumberGenerator()
    var t: [Double] = []
    for o in 0..<ops {
        let w = ws[Int.random(in: 0..<n, using: &rng)]
        if o % 2 == 0 {
            w.isHidden = true
            t.append(micros { w.isHidden = false })
        } else {
            let level = WindowLevel(Double(Int.random(in: 0..<3, using: &rng)) * 1000) ?? .normal
            t.append(micros { w.windowLevel = level })
        }
    }
    row("show or re-level one of \(n) windows, median of \(ops)", median(t), try baseline(["stacking", "\(n)", "\(ops)"]))
}

/// The same tree as the C baseline builds: `fan` children per node in a row, depth-first, up to `limit`.
@MainActor
func buildTree(depth: Int, fan: Int, width: Double, height: Double, count: inout Int, limit: Int) -> View {
    let v = View(frame: Rect(x: 0, y: 0, width: width, height: height))
    count += 1
    guard depth > 0 else { return v }
    for i in 0..<fan where count < limit {
        let c = buildTree(depth: depth - 1, fan: fan, width: width / Double(fan), height: height, count: &count, limit: limit)
        c.frame.origin = Point(x: Double(i) * (width / Double(fan)), y: 0)
        v.addSubview(c)
    }
    return v
}

@MainActor
func benchHitTest(views: Int, depth: Int) throws {
    var count = 0
    let root = buildTree(depth: depth, fan: 10, width: 100_000, height: 1000, count: &count, limit: views)
    let calls = 5000
    var t: [Double] = []
    var found = 0
    for i in 0..<calls {
        let p = Point(x: Double((i * 7919) % 100_000), y: Double((i * 104_729) % 1000))
        t.append(micros { if root.hitTest(p) != nil { found += 1 } })
    }
    precondition(found == calls)
    row("hit test in a tree of \(count) views, median of \(calls)", median(t),
        try baseline(["hittest", "\(views)", "\(calls)", "\(depth)", "10"]))
}

@MainActor
func main() async throws {
    let only = CommandLine.arguments.dropFirst().first
    print("| benchmark | Swift | raw C | ratio |")
    print("|---|---|---|---|")
    if only == nil || only == "x11" {
        let server = try await VirtualServer.start(monitors: [
            .init("MAIN", "1920x1080+0+0", primary: true), .init("EXT-1", "1280x720+1920+0"), .init("EXT-2", "1024x768+3200+0"),
        ])
        defer { server.stop() }
        try benchScreens(server)
        try benchHotplug(server)
    }
    if only == nil || only == "model" {
        for n in [1_000, 10_000, 100_000] { try benchStacking(windows: n) }
        for (v, d) in [(100, 2), (1_000, 3), (10_000, 4)] { try benchHitTest(views: v, depth: d) }
    }
}

try await main()
