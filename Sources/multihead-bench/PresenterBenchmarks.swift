import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11

@MainActor
func makeX11App(_ server: VirtualServer) throws -> (Application, X11Backend) {
    let backend = X11Backend(display: server.display)
    return (try Application(backend: backend), backend)
}

/// Makes a window's pixels the client's to draw: a window of one colour is filled by the server (no pixels
/// drawn or pushed), and these rows measure drawing and pushing, as their C sides do. A 1×1 view of
/// another colour in the corner is enough.
@MainActor
func clientDrawn(_ w: Window) -> Window {
    let dot = View(frame: Rect(x: 0, y: 0, width: 1, height: 1))
    dot.backgroundColor = .black
    w.addSubview(dot)
    return w
}

/// Create, draw and map N windows in one flush, against C creating, putting and mapping as many.
@MainActor
func benchCreateWindows(_ server: VirtualServer, count n: Int) throws {
    let (app, backend) = try makeX11App(server)
    defer { backend.stop() }
    var ws: [Window] = []
    for i in 0..<n {
        let w = Window(frame: Rect(x: Double((i % 40) * 10), y: Double((i / 40) * 10), width: 64, height: 64), screen: app.mainScreen)
        w.backgroundColor = Color(white: 0.25)
        ws.append(clientDrawn(w))
    }
    let t = withExtendedLifetime(ws) {
        micros {
            for w in ws { w.isHidden = false }
            app.flush()
        }
    }
    row("create, draw and map \(n) windows (total)", t, try baseline(["windows", "\(n)"], environment: server.environment))
}

/// A 1920×1080 frame: the push alone, and a full frame (fill and push), each until the server has read
/// the pixels (Swift: its completion event; C: XSync), C in lock step.
@MainActor
func benchPush(_ server: VirtualServer) throws {
    let (app, backend) = try makeX11App(server)
    defer { backend.stop() }
    let w = clientDrawn(Window(frame: Rect(x: 0, y: 0, width: 1920, height: 1080), screen: app.mainScreen))
    w.backgroundColor = .red
    w.isHidden = false
    app.flush()
    let iters = 200
    guard let presenter = backend.presenter else { return }
    let place = placer([w], app, backend)
    let (push, cPush) = try lockStep(["push", "1920", "1080", "\(iters)", "0"], server: server, iterations: iters, place: place) { _ in
        micros { presenter.pushAgain(w) }
    }
    row("push a 1920×1080 frame (XShmPutImage, until read), median of \(iters), C in lock step", push, cPush)
    let (full, cFull) = try lockStep(["push", "1920", "1080", "\(iters)", "1"], server: server, iterations: iters, place: place) { i in
        micros {
            w.backgroundColor = i % 2 == 0 ? .blue : .red
            app.flush()
            backend.waitForReads()
        }
    }
    row("draw (cairo fill) and push a 1920×1080 frame, median of \(iters), C in lock step", full, cFull)
}

/// A 200×40 label whose text changes in a 1920×1080 window: change → pixels on the server (the damage
/// drawn and sent, until read), against C drawing the same text with cairo in that rectangle and pushing it.
/// At `scale` 2 both monitors are 2× (a factor by name): the window is 960×540 points on the same pixels,
/// the label 400×80 pixels with its text at twice the size, and C draws its text at twice the size too.
@MainActor
func benchLabelTick(_ server: VirtualServer, scale: Double = 1) throws {
    let backend = X11Backend(display: server.display, screenScaleFactors: scale == 1 ? [:] : ["MAIN": scale, "SIDE": scale])
    let app = try Application(backend: backend)
    defer { backend.stop() }
    let w = Window(frame: Rect(x: 0, y: 0, width: 1920 / scale, height: 1080 / scale), screen: app.mainScreen)
    w.backgroundColor = .white
    let label = Label(frame: Rect(x: 100 / scale, y: 100 / scale, width: 200, height: 40))
    label.backgroundColor = .white
    w.addSubview(label)
    w.isHidden = false
    app.flush()
    let iters = Int(ProcessInfo.processInfo.environment["MULTIHEAD_BENCH_FRAMES"] ?? "") ?? 200
    let px = { (v: Double) in "\(Int(v * scale))" }
    // The second half on SIDE: at 1× a shift by its width in points; at 2× that would overshoot, so the
    // window moves to the screen (its frame in points stays).
    let side = app.screen(named: "SIDE")
    let place: (Double) -> Void = scale == 1 ? placer([w], app, backend) : { dx in
        if dx > 0, let side { w.screen = side }
        app.flush()
        backend.waitForReads()
    }
    let (t, c) = try lockStep(["label", "1920", "1080", "\(iters)", "100", "100", px(200), px(40)], server: server, iterations: iters,
                              place: place, baselineScale: scale) { i in
        let us = micros {
            label.text = "12:00:\(i % 60)"
            app.flush()
            backend.waitForReads()
        }
        precondition(backend.lastPushedPixels == Int(200 * scale) * Int(40 * scale))
        return us
    }
    let at = scale == 1 ? "" : " on \(String(rate: scale))× screens (\(px(200))×\(px(40)) pixels)"
    row("a 200×40 label's text changes in a 1920×1080 window\(at) (draw and push the damage), median of \(iters), "
        + "C in lock step", t, c)
}

/// Runs a C baseline in lock step with the Swift loop beside it: one C iteration after each Swift one,
/// their windows on the two monitors, the Swift side's on MAIN for the first half of the iterations and on
/// SIDE for the second (`place` moves them by the x it is given; C's start where the Swift side's are not).
/// Where a window sits changes what the server's copy of its pixels costs: a full-HD push at x 0 took 7%
/// longer than the same push at x 1920, whichever side made it. Returns both sides' medians; under a
/// profiler (`MULTIHEAD_BENCH_SWIFT_ONLY`), no C runs and its median is 0.
@MainActor
func lockStep(_ args: [String], server: VirtualServer, iterations n: Int, place: (Double) -> Void, baselineScale: Double = 1,
              iteration: (Int) throws -> Double) throws -> (swift: Double, c: Double) {
    var swift: [Double] = [], c: [Double] = []
    for (half, (swiftX, cX)) in [(0.0, "1920"), (1920.0, "0")].enumerated() {
        if half > 0 { place(swiftX) }
        let running = swiftOnly ? nil : try RunningBaseline(args, environment: server.environment.merging(
            ["MULTIHEAD_BASELINE_STEPPED": "1", "MULTIHEAD_BASELINE_X": cX, "MULTIHEAD_BASELINE_SCALE": String(baselineScale)]) { $1 })
        try running?.waitUntilReady()
        for i in (half * n / 2)..<((half + 1) * n / 2) {
            swift.append(try iteration(i))
            c.append(try running?.step() ?? 0)
        }
        // Ends it: it has made its share of iterations.
        _ = try running?.median()
    }
    place(0)
    return (median(swift), median(c))
}

/// What `lockStep` moves: `windows` by the x it is given from where they are now, shown and read.
@MainActor
func placer(_ windows: [Window], _ app: Application, _ backend: X11Backend) -> (Double) -> Void {
    let origins = windows.map(\.frame.origin.x)
    return { dx in
        for (w, x) in zip(windows, origins) { w.frame.origin.x = x + dx }
        app.flush()
        backend.waitForReads()
        // What the run loop does between an app's frames: the windows' events (their maps, exposures and
        // moves) handled, not left queued for every wait on the server's read to walk past.
        backend.processPendingEvents()
    }
}

/// 100 windows of which one changes, against 1 window that changes: the frame should cost the same.
@MainActor
func benchOneOfMany(_ server: VirtualServer) throws {
    func frameCost(windows n: Int) throws -> (swift: Double, c: Double) {
        let (app, backend) = try makeX11App(server)
        defer { backend.stop() }
        let ws = (0..<n).map { i -> Window in
            let w = Window(frame: Rect(x: Double((i % 10) * 192), y: Double((i / 10) * 108), width: 192, height: 108), screen: app.mainScreen)
            w.backgroundColor = .gray
            w.isHidden = false
            return clientDrawn(w)
        }
        app.flush()
        backend.waitForReads()
        backend.processPendingEvents()
        let iters = Int(ProcessInfo.processInfo.environment["MULTIHEAD_BENCH_FRAMES"] ?? "") ?? 300
        let changed = n / 2
        return try lockStep(["push", "192", "108", "\(iters)", "1"], server: server, iterations: iters, place: placer(ws, app, backend)) { i in
            let us = micros {
                ws[changed].backgroundColor = i % 2 == 0 ? .blue : .red
                app.flush()
                backend.waitForReads()
            }
            precondition(backend.lastPushedPixels == 192 * 108 && backend.lastSceneCount <= n)
            return us
        }
    }
    let (many, c100) = try frameCost(windows: 100)
    row("frame of 100 windows, 1 changed (192×108), median of 300, C's 1-window frame in lock step", many, c100)
    let (one, c1) = try frameCost(windows: 1)
    row("frame of 1 window, changed (192×108), median of 300, C in lock step", one, c1)
}

/// A 100×100 view animated across a 1920×1080 window at 60 Hz (`View.animate`, linear, 2 s): the
/// process's CPU time per frame, against C moving a square as far in as many frames. Three rounds, in each
/// C's animation and the Swift one run in the same seconds, their frames half a frame apart (C is set up
/// first): a frame's CPU time follows the machine's state (the same code measured 128 µs and 176 µs in
/// runs a minute apart), and two animations at the same time meet the same state. The medians are shown;
/// `MULTIHEAD_BENCH_ROUNDS` set prints each round's two figures too.
@MainActor
func benchAnimation(_ server: VirtualServer) async throws {
    let (app, backend) = try makeX11App(server)
    defer { backend.stop() }
    let w = Window(frame: Rect(x: 0, y: 0, width: 1920, height: 1080), screen: app.mainScreen)
    w.backgroundColor = .white
    let square = View(frame: Rect(x: 0, y: 490, width: 100, height: 100))
    square.backgroundColor = .blue
    w.addSubview(square)
    w.isHidden = false
    let frames = Int(ProcessInfo.processInfo.environment["MULTIHEAD_BENCH_FRAMES"] ?? "") ?? 120
    var swift: [Double] = [], c: [Double] = [], seen: [Int] = []
    for _ in 0..<3 {
        square.frame.origin.x = 0
        app.flush()
        backend.waitForReads()
        let pushedBefore = backend.framesPushed
        let running = swiftOnly ? nil : try RunningBaseline(["animate", "1920", "1080", "\(frames)"], environment: server.environment)
        try running?.waitUntilReady()
        // C's frames half a frame after ours: neither runs right after the other, whose work (the
        // kernel's, the server's) would have warmed what it runs next.
        try running?.begin(atNanoseconds: monotonicNanoseconds() + 8_333_333)
        let start = cpuMicros()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            View.animate(withDuration: Double(frames) / 60, delay: 0, options: .curveLinear, animations: {
                square.frame.origin.x = 1820
            }, completion: { _ in done.resume() })
        }
        swift.append((cpuMicros() - start) / Double(frames))
        seen.append(backend.framesPushed - pushedBefore)
        c.append(try running?.median() ?? 0)
        if ProcessInfo.processInfo.environment["MULTIHEAD_BENCH_ROUNDS"] != nil { print("round", swift.last ?? 0, c.last ?? 0) }
    }
    row("60 fps animation of a 100×100 view across 1920×1080: CPU per frame (\(frames) frames, \(seen.min() ?? 0) seen; "
        + "median of 3 rounds)", median(swift), median(c))
}

/// `CLOCK_MONOTONIC`, in nanoseconds: the clock the C baseline's frames keep.
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The process's CPU time (user and system), in microseconds. `clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`.
func cpuMicros() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1e6 + Double(ts.tv_nsec) / 1e3
}

/// Resident memory per shown 1920×1080 window, against C's one touched buffer of that size.
@MainActor
func benchMemory(_ server: VirtualServer) throws {
    let (app, backend) = try makeX11App(server)
    defer { backend.stop() }
    // One window shown first: what the first one sets up once (the presenter's, cairo's and the shared
    // memory's first use) is no window's cost, and the row runs in a fresh process (Scripts/bench).
    let first = clientDrawn(Window(frame: Rect(x: 0, y: 0, width: 1920, height: 1080), screen: app.mainScreen))
    first.backgroundColor = .blue
    first.isHidden = false
    app.flush()
    let k = 8
    let before = Double(residentKB())
    let ws = (0..<k).map { _ -> Window in
        let w = clientDrawn(Window(frame: Rect(x: 0, y: 0, width: 1920, height: 1080), screen: app.mainScreen))
        w.backgroundColor = .blue
        w.isHidden = false
        return w
    }
    let perWindow = withExtendedLifetime((first, ws)) {
        app.flush()
        precondition(backend.lastRedrawCount == k)
        return (Double(residentKB()) - before) / Double(k) / 1024
    }
    row("resident memory per shown 1920×1080 window (\(k) windows)", perWindow,
        try baseline(["memory", "1920", "1080", "\(k)"]), unit: "MB")
}

/// |callback time − frame time| of a 60 Hz display link over 600 frames, against clock_nanosleep.
@MainActor
func benchDisplayLink(_ server: VirtualServer) async throws {
    let (app, backend) = try makeX11App(server)
    defer { backend.stop() }
    var errors: [Double] = []
    await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
        var done = false
        _ = app.mainScreen.displayLink { link in
            let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
            errors.append(abs(now - link.timestamp) * 1e6)
            if errors.count == 600, !done {
                done = true
                link.invalidate()
                c.resume()
            }
        }
    }
    row("display link: |callback − frame time|, median of 600 frames at 60 Hz", median(errors), try baseline(["frames", "600"]))
}
