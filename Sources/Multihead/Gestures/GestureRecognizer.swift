/// Turns touches on a view into a gesture (UIGestureRecognizer), and runs its handler as the gesture's
/// state changes (UIKit's target/action, as a closure).
///
/// UIKit's rules: a recognizer sees every touch that begins in its view or in the view's subviews, before
/// the hit view does. Once it recognizes its gesture (a tap's end, a pan's start), the other recognizers
/// of the touch fail, and with `cancelsTouchesInView` the hit view gets `touchesCancelled` for the touch
/// and nothing more of it (a `Control` sends `.touchCancel`). A touch no recognizer claims reaches the hit
/// view as usual.
@MainActor
open class GestureRecognizer {
    /// Where a gesture is (UIGestureRecognizer.State).
    public enum State: Sendable, Hashable {
        /// Not recognized yet: the default.
        case possible
        /// A continuous gesture began.
        case began
        /// A continuous gesture changed.
        case changed
        /// The gesture ended (`recognized` for a discrete gesture such as a tap).
        case ended
        /// The gesture was cancelled (its touch was).
        case cancelled
        /// The touches are not this gesture.
        case failed

        /// A discrete gesture's recognition: `ended`.
        public static let recognized = State.ended
    }

    /// The view it is attached to.
    public internal(set) weak var view: View?
    /// Whether it takes part; a disabled recognizer sees no touches.
    open var isEnabled = true {
        didSet { if !isEnabled, state == .began || state == .changed { setState(.cancelled) } }
    }
    /// Whether a recognized gesture takes its touches from the hit view (true by default).
    open var cancelsTouchesInView = true
    /// Where the gesture is.
    public private(set) var state: State = .possible

    private let handler: @MainActor (GestureRecognizer) -> Void
    /// The touches it is following.
    var touches: [Touch] = []

    /// Makes a recognizer whose handler runs at each state change (for a tap: once, at recognition).
    public init(handler: @escaping @MainActor (GestureRecognizer) -> Void) {
        self.handler = handler
    }

    /// Where the gesture is in a view's coordinates (nil: its window's): its first touch's location.
    open func location(in view: View?) -> Point {
        guard let t = touches.first else { return lastLocationOnDesktop.map { view?.pointFromDesktop($0) ?? $0 } ?? .zero }
        return t.location(in: view)
    }

    /// Where its last touch was, in desktop coordinates, after the touches ended.
    var lastLocationOnDesktop: Point?

    /// Moves the gesture to a state: its handler runs for every state but `possible` and `failed`, and a
    /// recognition claims the touches (see the type's rules).
    public func setState(_ new: State) {
        guard new != state || new == .changed else { return }
        state = new
        if new == .began || new == .ended { onRecognize?(self) }
        if new != .possible && new != .failed { handler(self) }
    }

    /// Set by the application while it routes a touch: claims the touch when the gesture is recognized.
    var onRecognize: ((GestureRecognizer) -> Void)?

    /// Back to `possible`, once its touches ended; subclasses forget what they counted.
    open func reset() {
        state = .possible
    }

    /// A touch began in the view (or a subview). Subclasses decide the state; call super first.
    open func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        for t in touches where !self.touches.contains(t) { self.touches.append(t) }
    }

    /// A followed touch moved.
    open func touchesMoved(_ touches: Set<Touch>, with event: Event) {}

    /// A followed touch ended; call super last (it stops following the touch).
    open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        lastLocationOnDesktop = touches.first?.locationOnDesktop
        self.touches.removeAll { touches.contains($0) }
    }

    /// A followed touch was cancelled: a gesture in progress is cancelled.
    open func touchesCancelled(_ touches: Set<Touch>, with event: Event?) {
        if state == .began || state == .changed { setState(.cancelled) }
        self.touches.removeAll { touches.contains($0) }
    }
}

extension View {
    /// The recognizers attached to the view, in the order they were added; nil when none.
    public var gestureRecognizers: [GestureRecognizer]? {
        let list = recognizerStorage
        return list.isEmpty ? nil : list
    }

    /// Attaches a recognizer (taking it from any other view).
    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizer.view?.removeGestureRecognizer(recognizer)
        recognizer.view = self
        recognizerStorage.append(recognizer)
    }

    /// Detaches a recognizer.
    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        guard recognizer.view === self else { return }
        recognizerStorage.removeAll { $0 === recognizer }
        recognizer.view = nil
    }
}
