import Foundation
import Multihead
import MultiheadInMemory

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
    // Timed in batches of 20 calls, as the C peer is: a clock read per call would weigh as much as the walk.
    let calls = Int(ProcessInfo.processInfo.environment["MULTIHEAD_BENCH_CALLS"] ?? "") ?? 5000, batch = 20
    var t: [Double] = []
    var found = 0
    for b in 0..<(calls / batch) {
        t.append(micros {
            for i in (b * batch)..<((b + 1) * batch) {
                let p = Point(x: Double((i * 7919) % 100_000), y: Double((i * 104_729) % 1000))
                if root.hitTest(p) != nil { found += 1 }
            }
        } / Double(batch))
    }
    precondition(found == calls)
    row("hit test in a tree of \(count) views, median of \(calls / batch) batches of \(batch)", median(t),
        try baseline(["hittest", "\(views)", "\(calls)", "\(depth)", "10"]))
}

