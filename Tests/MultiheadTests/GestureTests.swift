@testable import Multihead
import MultiheadInMemory
import Testing

/// Records the touches that reach it.
@MainActor
final class TouchLog: View {
    var log: [String] = []
    override func touchesBegan(_ t: Set<Touch>, with e: Event) { log.append("began") }
    override func touchesMoved(_ t: Set<Touch>, with e: Event) { log.append("moved") }
    override func touchesEnded(_ t: Set<Touch>, with e: Event) { log.append("ended") }
    override func touchesCancelled(_ t: Set<Touch>, with e: Event?) { log.append("cancelled") }
}

@MainActor
@Suite("Gesture recognizers, UIKit's rules")
struct GestureTests {
    func setUp() throws -> (Application, InMemoryBackend, Window, View, TouchLog) {
        let (app, backend) = try makeApp(extra: false)
        let w = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), screen: app.mainScreen)
        let container = View(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let child = TouchLog(frame: Rect(x: 50, y: 50, width: 100, height: 100))
        container.addSubview(child)
        w.addSubview(container)
        w.isHidden = false
        return (app, backend, w, container, child)
    }

    func tapAt(_ b: InMemoryBackend, _ p: Point, at t: Double) {
        b.inject(.pointer(.pointerDown, at: p, timestamp: t))
        b.inject(.pointer(.pointerUp, at: p, timestamp: t + 0.05))
    }

    @Test("a tap on a superview's recognizer, from a subview: the handler once with .ended; the subview's touch cancelled")
    func tapFromSubview() throws {
        let (app, backend, w, container, child) = try setUp()
        defer { withExtendedLifetime((app, w)) {} }
        var states: [GestureRecognizer.State] = []
        let tap = TapGestureRecognizer { states.append($0.state) }
        container.addGestureRecognizer(tap)
        #expect(container.gestureRecognizers?.count == 1 && tap.view === container)
        tapAt(backend, Point(x: 60, y: 60), at: 1)
        #expect(states == [.ended])
        #expect(child.log == ["began", "cancelled"])
        #expect(tap.location(in: container) == Point(x: 60, y: 60))
        // Without cancelsTouchesInView the child gets its end.
        tap.cancelsTouchesInView = false
        child.log = []
        tapAt(backend, Point(x: 60, y: 60), at: 5)
        #expect(child.log == ["began", "ended"] && states == [.ended, .ended])
    }

    @Test("a double tap needs two taps within 0.35 s and 45 points")
    func doubleTap() throws {
        let (app, backend, w, container, _) = try setUp()
        defer { withExtendedLifetime((app, w)) {} }
        var count = 0
        let tap = TapGestureRecognizer { _ in count += 1 }
        tap.numberOfTapsRequired = 2
        container.addGestureRecognizer(tap)
        tapAt(backend, Point(x: 60, y: 60), at: 1)
        #expect(count == 0)
        tapAt(backend, Point(x: 70, y: 65), at: 1.2)
        #expect(count == 1)
        tapAt(backend, Point(x: 60, y: 60), at: 3)
        tapAt(backend, Point(x: 60, y: 60), at: 3.6)   // too late: a first tap again
        #expect(count == 1)
        tapAt(backend, Point(x: 200, y: 200), at: 3.7) // too far
        #expect(count == 1)
    }

    @Test("a pan begins after 10 points, changes per move, ends on lift; translation and velocity")
    func pan() throws {
        let (app, backend, w, container, child) = try setUp()
        defer { withExtendedLifetime((app, w)) {} }
        var states: [GestureRecognizer.State] = []
        var translations: [Point] = []
        let pan = PanGestureRecognizer { [weak container] r in
            states.append(r.state)
            guard let pan = r as? PanGestureRecognizer else { return }
            // Taking the movement so far, as UIKit code often does.
            if r.state == .began { pan.setTranslation(.zero, in: container) }
            translations.append(pan.translation(in: container))
        }
        container.addGestureRecognizer(pan)
        backend.inject(.pointer(.pointerDown, at: Point(x: 60, y: 60), timestamp: 0))
        backend.inject(.pointer(.pointerMoved, at: Point(x: 65, y: 60), timestamp: 0.1))
        #expect(states.isEmpty && child.log == ["began", "moved"])
        backend.inject(.pointer(.pointerMoved, at: Point(x: 80, y: 60), timestamp: 0.2))
        backend.inject(.pointer(.pointerMoved, at: Point(x: 100, y: 70), timestamp: 0.3))
        // Over the last four samples: 40 points in 0.3 s.
        #expect(abs(pan.velocity(in: container).x - 40 / 0.3) < 1e-6)
        backend.inject(.pointer(.pointerUp, at: Point(x: 100, y: 70), timestamp: 0.4))
        #expect(states == [.began, .changed, .ended])
        #expect(translations == [Point(x: 0, y: 0), Point(x: 20, y: 10), Point(x: 20, y: 10)])
        #expect(child.log == ["began", "moved", "cancelled"])
        #expect(pan.state == .possible)
    }

    @Test("a control inside a view with a pan still gets its tap; a pan that begins cancels the control's touch")
    func controlUnderRecognizer() throws {
        let (app, backend, w, container, _) = try setUp()
        defer { withExtendedLifetime((app, w)) {} }
        let button = Button(frame: Rect(x: 160, y: 160, width: 100, height: 40))
        container.addSubview(button)
        var events: [String] = []
        button.addAction(Action { _ in events.append("up") }, for: .touchUpInside)
        button.addAction(Action { _ in events.append("cancel") }, for: .touchCancel)
        container.addGestureRecognizer(PanGestureRecognizer { _ in })
        tapAt(backend, Point(x: 170, y: 170), at: 1)
        #expect(events == ["up"])
        backend.inject(.pointer(.pointerDown, at: Point(x: 170, y: 170), timestamp: 2))
        backend.inject(.pointer(.pointerMoved, at: Point(x: 200, y: 170), timestamp: 2.1))
        backend.inject(.pointer(.pointerUp, at: Point(x: 200, y: 170), timestamp: 2.2))
        #expect(events == ["up", "cancel"] && !button.isHighlighted)
        // setTranslation and removal.
        let pan = PanGestureRecognizer { _ in }
        container.addGestureRecognizer(pan)
        container.removeGestureRecognizer(pan)
        #expect(pan.view == nil && container.gestureRecognizers?.count == 1)
    }
}
