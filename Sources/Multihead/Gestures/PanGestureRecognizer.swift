/// Recognizes a drag (UIPanGestureRecognizer): `.began` once the touch moved 10 points, `.changed` at each
/// move after, `.ended` when it lifts. `translation(in:)` is measured from where the touch went down.
@MainActor
open class PanGestureRecognizer: GestureRecognizer {
    /// How far a touch moves before the pan begins, as UIKit's.
    static let threshold = 10.0

    private var origin: Point?
    private var samples: [(time: Double, at: Point)] = []

    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        super.touchesBegan(touches, with: event)
        guard state == .possible, let t = touches.first else { return }
        origin = t.locationOnDesktop
        samples = [(event.timestamp, t.locationOnDesktop)]
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        guard let origin, let t = touches.first else { return }
        samples.append((event.timestamp, t.locationOnDesktop))
        if samples.count > 4 { samples.removeFirst(samples.count - 4) }
        switch state {
        case .possible where distance(origin, t.locationOnDesktop) >= Self.threshold: setState(.began)
        case .began, .changed: setState(.changed)
        default: break
        }
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        if let t = touches.first { samples.append((event.timestamp, t.locationOnDesktop)) }
        let wasPanning = state == .began || state == .changed
        lastLocationOnDesktop = touches.first?.locationOnDesktop
        if wasPanning { setState(.ended) } else if state == .possible { setState(.failed) }
        super.touchesEnded(touches, with: event)
    }

    /// How far the touch moved since it went down (plus what `setTranslation` set), in a view's
    /// coordinates (nil: the window's).
    open func translation(in view: View?) -> Point {
        guard let origin else { return .zero }
        let now = touches.first?.locationOnDesktop ?? lastLocationOnDesktop ?? origin
        let a = desktopToView(origin, view), b = desktopToView(now, view)
        return Point(x: b.x - a.x + adjustment.x, y: b.y - a.y + adjustment.y)
    }

    /// Makes the translation read `translation` now (UIKit's way of taking the movement so far).
    open func setTranslation(_ translation: Point, in view: View?) {
        let current = self.translation(in: view)
        adjustment = Point(x: adjustment.x + translation.x - current.x, y: adjustment.y + translation.y - current.y)
    }

    private var adjustment = Point.zero

    /// How fast the touch moves, in points per second, over its last few moves.
    open func velocity(in view: View?) -> Point {
        guard let first = samples.first, let last = samples.last, last.time > first.time else { return .zero }
        let a = desktopToView(first.at, view), b = desktopToView(last.at, view)
        let dt = last.time - first.time
        return Point(x: (b.x - a.x) / dt, y: (b.y - a.y) / dt)
    }

    open override func reset() {
        super.reset()
        origin = nil
        samples = []
        adjustment = .zero
    }

    private func desktopToView(_ p: Point, _ view: View?) -> Point {
        if let view { return view.pointFromDesktop(p) }
        return self.view?.window?.pointFromDesktop(p) ?? p
    }
}
