@testable import Multihead
import Testing

/// UIKit's hit test written out over the public API, without the hit index: what `hitTest` must answer.
@MainActor
private func expectedHit(_ v: View, _ p: Point) -> View? {
    guard p.isFinite, !v.isHidden, v.alpha >= 0.01, v.isUserInteractionEnabled, v.point(inside: p, with: nil) else { return nil }
    for sub in v.subviews.reversed() {
        let q = Point(x: p.x - sub.frame.minX + sub.bounds.minX, y: p.y - sub.frame.minY + sub.bounds.minY)
        if let hit = expectedHit(sub, q) { return hit }
    }
    return v
}

/// A subclass whose `point(inside:)` leaves a hole in its middle while `hole` is set: nothing tells the
/// model when it changes, so its answer must be asked at every hit test.
@MainActor
private final class Ring: View {
    var hole = false
    override func point(inside point: Point, with event: Event? = nil) -> Bool {
        guard super.point(inside: point, with: event) else { return false }
        let b = bounds
        return !(hole && point.x >= b.minX + b.width / 4 && point.x < b.maxX - b.width / 4)
    }
}

/// A subclass that takes the touches of its whole subtree while `grabs` is set.
@MainActor
private final class Grabber: View {
    var grabs = false
    override func hitTest(_ point: Point, with event: Event? = nil) -> View? {
        let hit = super.hitTest(point, with: event)
        return grabs && hit != nil ? self : hit
    }
}

/// A small deterministic generator, so that a failing sequence of changes comes back the same.
private struct Lcg {
    var state: UInt64
    mutating func next(_ n: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(n))
    }
}

@MainActor
@Suite("Hit testing: the hit index answers as the tree walk does after every kind of change")
struct HitTestTests {
    /// Two overlapping siblings, `front` over `back`, and `inner` inside `front`, all over (30, 30).
    @MainActor private final class Scene {
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let back = View(frame: Rect(x: 0, y: 0, width: 60, height: 60))
        let front = View(frame: Rect(x: 20, y: 20, width: 60, height: 60))
        let inner = View(frame: Rect(x: 5, y: 5, width: 10, height: 10))
        let other = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let p = Point(x: 30, y: 30)

        init() {
            root.addSubview(back)
            root.addSubview(front)
            front.addSubview(inner)
        }
    }

    @Test("each change after a hit test shows in the next one, at the root and at an intermediate view")
    func everyChangeDropsTheIndex() {
        let changes: [(String, @MainActor (Scene) -> Void, @MainActor (Scene) -> View)] = [
            ("addSubview in front", { s in s.root.addSubview(s.other) }, { $0.other }),
            ("addSubview below, deep", { s in s.inner.addSubview(s.other) }, { $0.other }),
            ("removeFromSuperview", { s in s.front.removeFromSuperview() }, { $0.back }),
            ("removeFromSuperview, deep", { s in s.inner.removeFromSuperview() }, { $0.front }),
            ("moved to another superview", { s in s.other.addSubview(s.inner) }, { $0.front }),
            ("bringSubviewToFront", { s in s.root.bringSubviewToFront(s.back) }, { $0.back }),
            ("sendSubviewToBack", { s in s.root.sendSubviewToBack(s.front) }, { $0.back }),
            ("insertSubview(at:)", { s in s.root.insertSubview(s.back, at: 1) }, { $0.back }),
            ("insertSubview(aboveSubview:)", { s in s.root.insertSubview(s.back, aboveSubview: s.front) }, { $0.back }),
            ("insertSubview(belowSubview:)", { s in s.root.insertSubview(s.front, belowSubview: s.back) }, { $0.back }),
            ("isHidden", { s in s.inner.isHidden = true }, { $0.front }),
            ("isHidden, an ancestor", { s in s.front.isHidden = true }, { $0.back }),
            ("alpha below 0.01", { s in s.inner.alpha = 0.005 }, { $0.front }),
            ("isUserInteractionEnabled", { s in s.front.isUserInteractionEnabled = false }, { $0.back }),
            ("frame", { s in s.inner.frame = Rect(x: 40, y: 40, width: 10, height: 10) }, { $0.front }),
            ("frame of an ancestor", { s in s.front.frame.origin = Point(x: 26, y: 20) }, { $0.front }),
            ("center", { s in s.front.center = Point(x: 90, y: 90) }, { $0.back }),
            ("bounds size", { s in s.front.bounds = Rect(x: 0, y: 0, width: 20, height: 20) }, { $0.back }),
            ("bounds origin", { s in s.front.bounds.origin = Point(x: 10, y: 0) }, { $0.front }),
            ("the root's subviews emptied", { s in s.back.removeFromSuperview(); s.front.removeFromSuperview() }, { $0.root }),
        ]
        for (name, change, expected) in changes {
            for alsoAtFront in [false, true] {
                let s = Scene()
                #expect(s.root.hitTest(s.p) === s.inner, "\(name): before")
                if alsoAtFront { #expect(s.front.hitTest(Point(x: 10, y: 10)) === s.inner, "\(name): before, at front") }
                _ = s.other.hitTest(s.p)
                change(s)
                #expect(s.root.hitTest(s.p) === expected(s), "\(name)")
                #expect(s.root.hitTest(s.p) === expectedHit(s.root, s.p), "\(name): the walk")
                let atFront = s.root.convert(s.p, to: s.front)
                #expect(s.front.hitTest(atFront) === expectedHit(s.front, atFront), "\(name): at front")
                #expect(s.other.hitTest(s.p) === expectedHit(s.other, s.p), "\(name): in the other tree")
            }
        }
    }

    @Test("a subclass's point(inside:) and hitTest overrides are asked at every hit test")
    func overridesAreAskedEveryTime() {
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let ring = Ring(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let grabber = Grabber(frame: Rect(x: 0, y: 0, width: 100, height: 50))
        let leaf = View(frame: Rect(x: 40, y: 10, width: 20, height: 20))
        root.addSubview(ring)
        ring.addSubview(grabber)
        grabber.addSubview(leaf)
        #expect(root.hitTest(Point(x: 50, y: 20)) === leaf)
        grabber.grabs = true
        #expect(root.hitTest(Point(x: 50, y: 20)) === grabber)
        ring.hole = true
        #expect(root.hitTest(Point(x: 50, y: 20)) === root)
        #expect(root.hitTest(Point(x: 10, y: 20)) === grabber)
        ring.hole = false
        grabber.grabs = false
        #expect(root.hitTest(Point(x: 50, y: 20)) === leaf)
        // A change below an overridable view reaches the index its own hit test keeps.
        leaf.isHidden = true
        #expect(root.hitTest(Point(x: 50, y: 20)) === grabber)
    }

    @Test("random trees and random changes: the hit test agrees with the walk at every step", arguments: [1, 2, 3, 4])
    func randomChanges(seed: Int) {
        var rng = Lcg(state: UInt64(seed))
        let roots = [View(frame: Rect(x: 0, y: 0, width: 40, height: 40)), Ring(frame: Rect(x: 0, y: 0, width: 40, height: 40))]
        var views: [View] = roots
        func randomFrame() -> Rect {
            Rect(x: Double(rng.next(40) - 5), y: Double(rng.next(40) - 5), width: Double(rng.next(30)), height: Double(rng.next(30)))
        }
        for step in 0..<1500 {
            let v = views[rng.next(views.count)]
            switch rng.next(14) {
            case 0, 1:
                let new: View = rng.next(5) == 0 ? Ring(frame: randomFrame()) : View(frame: randomFrame())
                views.append(new)
                v.addSubview(new)
            case 2:
                if !roots.contains(where: { $0 === v }) { v.removeFromSuperview() }
            case 3:
                let sub = views[rng.next(views.count)]
                if !roots.contains(where: { $0 === sub }) { v.insertSubview(sub, at: rng.next(v.subviews.count + 1)) }
            case 4: v.superview?.bringSubviewToFront(v)
            case 5: v.superview?.sendSubviewToBack(v)
            case 6: v.frame = randomFrame()
            case 7: v.center = Point(x: Double(rng.next(40)), y: Double(rng.next(40)))
            case 8: v.bounds = Rect(x: Double(rng.next(11) - 5), y: Double(rng.next(11) - 5), width: Double(rng.next(30)), height: Double(rng.next(30)))
            case 9: v.isHidden = rng.next(3) == 0
            case 10: v.alpha = [0, 0.005, 0.01, 0.5, 1][rng.next(5)]
            case 11: v.isUserInteractionEnabled = rng.next(3) != 0
            case 12: (v as? Ring)?.hole.toggle()
            default: v.bounds.origin = Point(x: Double(rng.next(11) - 5), y: Double(rng.next(11) - 5))
            }
            // From the roots and from one view in the tree, so that indexes at several depths are kept.
            let from = [roots[0], roots[1], views[rng.next(views.count)]]
            for at in from {
                for _ in 0..<12 {
                    let p = Point(x: Double(rng.next(50) - 5), y: Double(rng.next(50) - 5))
                    #expect(at.hitTest(p) === expectedHit(at, p), "seed \(seed), step \(step), at \(p)")
                }
            }
        }
    }
}
