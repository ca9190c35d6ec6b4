/// Recognizes taps (UITapGestureRecognizer): `numberOfTapsRequired` touches, each lifted within 45 points
/// of where it went down, each beginning within 0.35 s of the last one's end. Discrete: its handler runs
/// once, with `.ended`, when the last tap lifts.
@MainActor
open class TapGestureRecognizer: GestureRecognizer {
    /// How many taps make the gesture; 1 by default.
    open var numberOfTapsRequired = 1

    /// The farthest a tap may move, and the longest pause between taps, as UIKit allows.
    static let slop = 45.0, interval = 0.35

    private var taps = 0
    private var start: Point?
    private var lastEnd: (time: Double, at: Point)?

    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        super.touchesBegan(touches, with: event)
        guard state == .possible, let t = touches.first else { return }
        if let last = lastEnd, event.timestamp - last.time > Self.interval || distance(last.at, t.locationOnDesktop) > Self.slop {
            taps = 0
        }
        start = t.locationOnDesktop
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        guard state == .possible, let start, let t = touches.first else { return }
        if distance(start, t.locationOnDesktop) > Self.slop { setState(.failed) }
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        defer { super.touchesEnded(touches, with: event) }
        guard state == .possible, let start, let t = touches.first else { return }
        guard distance(start, t.locationOnDesktop) <= Self.slop else { return setState(.failed) }
        taps += 1
        lastEnd = (event.timestamp, t.locationOnDesktop)
        if taps >= max(1, numberOfTapsRequired) {
            taps = 0
            lastEnd = nil
            setState(.ended)
        }
    }

    open override func reset() {
        super.reset()
        start = nil
    }
}

/// The distance between two points.
func distance(_ a: Point, _ b: Point) -> Double {
    let dx = a.x - b.x, dy = a.y - b.y
    return (dx * dx + dy * dy).squareRoot()
}
