@testable import Multihead
import Testing

@MainActor
@Suite("Views: geometry, hierarchy, conversion, hit testing")
struct ViewTests {
    @Test func frameBoundsAndCenter() {
        let v = View(frame: Rect(x: 10, y: 20, width: 100, height: 50))
        #expect(v.bounds == Rect(x: 0, y: 0, width: 100, height: 50))
        #expect(v.center == Point(x: 60, y: 45))
        v.center = Point(x: 100, y: 100)
        #expect(v.frame == Rect(x: 50, y: 75, width: 100, height: 50))
        v.bounds = Rect(x: 5, y: 5, width: 200, height: 100)
        #expect(v.center == Point(x: 100, y: 100))
        #expect(v.frame == Rect(x: 0, y: 50, width: 200, height: 100))
        #expect(v.bounds.origin == Point(x: 5, y: 5))
    }

    @Test func hierarchyOperations() {
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let a = View(frame: .zero), b = View(frame: .zero), c = View(frame: .zero), d = View(frame: .zero)
        root.addSubview(a)
        root.addSubview(b)
        #expect(root.subviews.map(ObjectIdentifier.init) == [a, b].map(ObjectIdentifier.init) && a.superview === root)
        root.insertSubview(c, at: 1)
        #expect(root.subviews.map(ObjectIdentifier.init) == [a, c, b].map(ObjectIdentifier.init))
        root.insertSubview(d, aboveSubview: a)
        #expect(root.subviews.map(ObjectIdentifier.init) == [a, d, c, b].map(ObjectIdentifier.init))
        root.insertSubview(b, belowSubview: a)
        #expect(root.subviews.map(ObjectIdentifier.init) == [b, a, d, c].map(ObjectIdentifier.init))
        root.bringSubviewToFront(b)
        root.sendSubviewToBack(c)
        #expect(root.subviews.map(ObjectIdentifier.init) == [c, a, d, b].map(ObjectIdentifier.init))
        root.insertSubview(a, at: 99)
        #expect(root.subviews.last === a)
        // Adding a view that has a superview moves it.
        a.addSubview(d)
        #expect(d.superview === a && !root.subviews.contains { $0 === d })
        d.removeFromSuperview()
        #expect(d.superview == nil && a.subviews.isEmpty)
    }

    @Test func windowAndSuperviewStayConsistentThroughMoves() throws {
        let (app, _) = try makeApp()
        let w1 = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), screen: app.mainScreen)
        let w2 = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), screen: app.mainScreen)
        let parent = View(frame: .zero), child = View(frame: .zero)
        parent.addSubview(child)
        #expect(child.window == nil)
        w1.addSubview(parent)
        #expect(child.window === w1 && parent.window === w1)
        w2.addSubview(parent)
        #expect(child.window === w2 && w1.subviews.isEmpty)
        parent.removeFromSuperview()
        #expect(child.window == nil && child.superview === parent)
        #expect(w1.window === w1)
    }

    @Test func aViewCannotBeAddedToItselfOrItsOwnSubview() {
        let a = View(frame: .zero), b = View(frame: .zero), c = View(frame: .zero)
        a.addSubview(b)
        b.addSubview(c)
        a.addSubview(a)
        c.addSubview(a)
        b.insertSubview(a, at: 0)
        #expect(a.superview == nil && b.superview === a && c.superview === b)
        #expect(a.subviews.count == 1 && c.subviews.isEmpty)
    }

    @Test func labelAndRedrawMarks() throws {
        let (app, backend) = try makeApp()
        let w = Window(frame: Rect(x: 0, y: 0, width: 300, height: 100), screen: app.mainScreen)
        let l = Label(frame: Rect(x: 0, y: 0, width: 100, height: 20))
        w.addSubview(l)
        w.isHidden = false
        app.flush()
        #expect(backend.shown.first?.redrawn == true)
        app.flush()
        let presentations = backend.presentations
        l.text = "<no content>"
        #expect(w.needsDisplay)
        app.flush()
        #expect(backend.presentations == presentations + 1 && backend.shown.first?.redrawn == true)
        l.textColor = .red
        l.fontSize = 18
        l.fontSize = .nan
        #expect(l.fontSize == 18)
        l.sizeToFit()
        #expect(l.frame.size == Size(width: (12 * 18 * 0.6).rounded(.up), height: 23))
    }

    @Test func conversionBetweenViewsWindowsAndScreens() throws {
        let (app, _) = try makeApp()
        let ext = try #require(app.screen(named: "EXT"))
        let w1 = Window(frame: Rect(x: 100, y: 50, width: 500, height: 500), screen: app.mainScreen)
        let w2 = Window(frame: Rect(x: 10, y: 20, width: 500, height: 500), screen: ext)
        let outer = View(frame: Rect(x: 10, y: 10, width: 200, height: 200))
        outer.bounds.origin = Point(x: 5, y: 5)
        let inner = View(frame: Rect(x: 20, y: 30, width: 50, height: 50))
        w1.addSubview(outer)
        outer.addSubview(inner)
        // inner (0,0) → outer (20,30) → w1 (20-5+10, 30-5+10) = (25, 35) → main screen (125, 85).
        #expect(inner.convert(Point.zero, to: outer) == Point(x: 20, y: 30))
        #expect(inner.convert(Point.zero, to: w1) == Point(x: 25, y: 35))
        // nil is the window's coordinates for a view (UIKit's rule), the screen's for a window.
        #expect(inner.convert(Point.zero, to: nil) == Point(x: 25, y: 35))
        #expect(w1.convert(Point(x: 25, y: 35), to: nil) == Point(x: 125, y: 85))
        #expect(w1.convert(Point(x: 125, y: 85), from: nil) == Point(x: 25, y: 35))
        #expect(outer.convert(Point.zero, from: inner) == Point(x: 20, y: 30))
        #expect(inner.convert(Point(x: 25, y: 35), from: w1) == .zero)
        #expect(inner.convert(Point(x: 25, y: 35), from: nil) == .zero)
        // Across screens through desktop coordinates: desktop (125, 85) is EXT (-1795, 85), w2 (-1805, 65).
        let v2 = View(frame: Rect(x: 1, y: 1, width: 10, height: 10))
        w2.addSubview(v2)
        #expect(inner.convert(Point.zero, to: w2) == Point(x: 125 - 1920 - 10, y: 85 - 20))
        #expect(v2.convert(Point.zero, to: inner) == Point(x: 1920 + 10 + 1 - 125, y: 20 + 1 - 85))
        let r = inner.convert(Rect(x: 0, y: 0, width: 10, height: -5), to: w1)
        #expect(r == Rect(x: 25, y: 30, width: 10, height: 5))
        #expect(w1.convert(Rect(x: 25, y: 35, width: 1, height: 1), to: inner) == Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(inner.convert(Rect(x: 25, y: 35, width: 3, height: 3), from: nil) == Rect(x: 0, y: 0, width: 3, height: 3))
        #expect(w1.convert(Rect(x: 0, y: 0, width: 3, height: 3), to: nil) == Rect(x: 100, y: 50, width: 3, height: 3))
        // The same through CoordinateSpace: a view, and the screens' spaces.
        #expect(inner.convert(Point.zero, to: app.mainScreen.coordinateSpace) == Point(x: 125, y: 85))
        #expect(inner.convert(Point.zero, to: ext.fixedCoordinateSpace) == Point(x: 125 - 1920, y: 85))
        #expect(ext.coordinateSpace.convert(Point(x: 125 - 1920, y: 85), to: inner as any CoordinateSpace) == .zero)
        #expect(app.mainScreen.coordinateSpace.convert(Rect(x: 125, y: 85, width: 2, height: -2), to: w1 as any CoordinateSpace)
                == Rect(x: 25, y: 33, width: 2, height: 2))
    }

    @Test func hitTestFindsTheDeepestVisibleInteractiveView() throws {
        let (app, _) = try makeApp()
        let w = Window(frame: Rect(x: 0, y: 0, width: 200, height: 200), screen: app.mainScreen)
        w.isHidden = false
        let back = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let front = View(frame: Rect(x: 50, y: 50, width: 100, height: 100))
        let deep = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        w.addSubview(back)
        w.addSubview(front)
        front.addSubview(deep)
        #expect(w.hitTest(Point(x: 70, y: 70)) === deep)
        #expect(w.hitTest(Point(x: 55, y: 55)) === front)
        #expect(w.hitTest(Point(x: 10, y: 10)) === back)
        #expect(w.hitTest(Point(x: 180, y: 10)) === w)
        deep.isHidden = true
        #expect(w.hitTest(Point(x: 70, y: 70)) === front)
        // UIKit's threshold: below 0.01 a view is passed over, at 0.01 it still receives.
        front.alpha = 0.009
        #expect(w.hitTest(Point(x: 70, y: 70)) === back)
        front.alpha = 0.01
        #expect(w.hitTest(Point(x: 70, y: 70)) === front)
        front.alpha = 0.02
        front.isUserInteractionEnabled = false
        #expect(w.hitTest(Point(x: 70, y: 70)) === back)
        #expect(w.hitTest(Point(x: .nan, y: 1)) == nil)
    }

    @Test func aPointOutsideTheWindowReachesNothingEvenWhereASubviewDraws() throws {
        let (app, _) = try makeApp()
        let w = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), screen: app.mainScreen)
        w.isHidden = false
        let wide = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        w.addSubview(wide)
        #expect(w.hitTest(Point(x: 50, y: 50)) === wide)
        #expect(w.hitTest(Point(x: 150, y: 50)) == nil)
        #expect(app.window(at: Point(x: 150, y: 50)) == nil)
        w.isHidden = true
        #expect(w.hitTest(Point(x: 50, y: 50)) == nil)
    }

    @Test("tags: 0 by default; viewWithTag searches depth first, the view itself first")
    func tags() {
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let a = View(frame: .zero), a1 = View(frame: .zero), b = View(frame: .zero)
        root.addSubview(a); a.addSubview(a1); root.addSubview(b)
        #expect(root.tag == 0 && root.viewWithTag(0) === root)
        a1.tag = 7
        b.tag = 7
        #expect(root.viewWithTag(7) === a1)     // a's subtree before b
        root.tag = 7
        #expect(root.viewWithTag(7) === root)
        #expect(root.viewWithTag(8) == nil)
    }
}

@MainActor
@Suite("Display marks")
struct DisplayMarkTests {
    @Test("a subview's needsDisplay clears once its window is drawn, and comes back with setNeedsDisplay")
    func subviewMarkClears() throws {
        let (app, _) = try makeApp(extra: false)
        let w = Window(frame: Rect(x: 0, y: 0, width: 200, height: 200), screen: app.mainScreen)
        let child = View(frame: Rect(x: 10, y: 10, width: 50, height: 50))
        let grandchild = View(frame: Rect(x: 1, y: 1, width: 5, height: 5))
        child.addSubview(grandchild)
        w.addSubview(child)
        w.isHidden = false
        app.flush()
        #expect(!w.needsDisplay && !child.needsDisplay && !grandchild.needsDisplay)
        grandchild.setNeedsDisplay()
        #expect(grandchild.needsDisplay && w.needsDisplay)
        app.flush()
        #expect(!grandchild.needsDisplay && !w.needsDisplay)
    }
}

@MainActor
@Suite("A superview is not retained by its subviews")
struct SuperviewLifetimeTests {
    @Test("a subview held elsewhere outlives its superview: its superview is then nil, not a dangling one")
    func subviewOutlivesSuperview() {
        let child = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        weak var gone: View?
        do {
            let parent = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            parent.addSubview(child)
            #expect(child.superview === parent)
            gone = parent
        }
        #expect(gone == nil)
        #expect(child.superview == nil)
        // And it can join another.
        let other = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        other.addSubview(child)
        #expect(child.superview === other && other.subviews.count == 1)
    }
}
