/// A view that turns touches into events and runs actions for them (UIControl): touch down, drags inside
/// and outside, touch up inside or outside, cancel. `isHighlighted` is true while a touch that began in the
/// control is inside its bounds. A disabled control takes its touches and does nothing with them.
@MainActor
open class Control: View {
    /// What a control reports (UIControl.Event).
    public struct Event: OptionSet, Hashable, Sendable {
        /// The events as bits.
        public let rawValue: UInt
        /// Events from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// A touch began in the control.
        public static let touchDown = Event(rawValue: 1 << 0)
        /// A touch began in the control soon after another ended there (a double tap's second).
        public static let touchDownRepeat = Event(rawValue: 1 << 1)
        /// A touch moved within the bounds.
        public static let touchDragInside = Event(rawValue: 1 << 2)
        /// A touch moved outside the bounds.
        public static let touchDragOutside = Event(rawValue: 1 << 3)
        /// A touch moved from outside the bounds to inside.
        public static let touchDragEnter = Event(rawValue: 1 << 4)
        /// A touch moved from inside the bounds to outside.
        public static let touchDragExit = Event(rawValue: 1 << 5)
        /// A touch ended inside the bounds.
        public static let touchUpInside = Event(rawValue: 1 << 6)
        /// A touch ended outside the bounds.
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        /// A touch was cancelled (its window hid, its screen went, a gesture recognizer took it).
        public static let touchCancel = Event(rawValue: 1 << 8)
        /// The control's value changed.
        public static let valueChanged = Event(rawValue: 1 << 12)
        /// The control's primary action happened (a button's touch up inside).
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        /// Every touch event.
        public static let allTouchEvents = Event(rawValue: 0x0FFF)
        /// Every event.
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)
    }

    /// What state a control is in (UIControl.State); `normal` is none of the others.
    public struct State: OptionSet, Hashable, Sendable {
        /// The states as bits.
        public let rawValue: UInt
        /// States from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Enabled, not highlighted, not selected.
        public static let normal: State = []
        /// A touch is down inside the control.
        public static let highlighted = State(rawValue: 1 << 0)
        /// The control does not take touches.
        public static let disabled = State(rawValue: 1 << 1)
        /// The control is selected (a toggle that is on).
        public static let selected = State(rawValue: 1 << 2)
    }

    /// Whether the control takes touches; a disabled one sends nothing. True by default.
    open var isEnabled = true {
        didSet {
            guard isEnabled != oldValue else { return }
            if !isEnabled, isTracking { cancelTouch(with: nil) }
            stateDidChange()
        }
    }

    /// Whether the control is selected.
    open var isSelected = false { didSet { if isSelected != oldValue { stateDidChange() } } }

    /// Whether a touch that began in the control is inside its bounds now.
    open var isHighlighted = false { didSet { if isHighlighted != oldValue { stateDidChange() } } }

    /// The state, from `isEnabled`, `isHighlighted` and `isSelected`.
    public var state: State {
        var s: State = []
        if isHighlighted { s.insert(.highlighted) }
        if !isEnabled { s.insert(.disabled) }
        if isSelected { s.insert(.selected) }
        return s
    }

    /// Whether a touch is being tracked (between `beginTracking` returning true and the touch's end).
    public private(set) var isTracking = false
    /// Whether the tracked touch is inside the bounds.
    public private(set) var isTouchInside = false

    private var actions: [(action: Action, events: Event)] = []
    private var trackedTouch: Touch?
    private var lastTouchUp: (time: Double, at: Point)?

    /// Runs `action` for any of `events` (as UIControl.addAction(_:for:)).
    public func addAction(_ action: Action, for events: Event) {
        actions.append((action, events))
    }

    /// Stops running `action` for `events` (for the others it was added for, it still runs).
    public func removeAction(_ action: Action, for events: Event) {
        actions = actions.compactMap { entry in
            guard entry.action === action else { return entry }
            let left = entry.events.subtracting(events)
            return left.isEmpty ? nil : (entry.action, left)
        }
    }

    /// The actions added for any of `events`, in the order they were added.
    public func actions(for events: Event) -> [Action] {
        actions.filter { !$0.events.isDisjoint(with: events) }.map(\.action)
    }

    /// Runs the actions added for any of `events`, in the order they were added; each sees this control as
    /// its `sender`.
    open func sendActions(for events: Event) {
        for action in actions(for: events) {
            action.sender = self
            action.handler(action)
        }
    }

    /// A touch began in the control; return false to stop tracking it. The default returns true.
    open func beginTracking(_ touch: Touch, with event: Multihead.Event?) -> Bool { true }
    /// The tracked touch moved; return false to stop tracking it. The default returns true.
    open func continueTracking(_ touch: Touch, with event: Multihead.Event?) -> Bool { true }
    /// The tracked touch ended.
    open func endTracking(_ touch: Touch?, with event: Multihead.Event?) {}
    /// The tracked touch was cancelled.
    open func cancelTracking(with event: Multihead.Event?) {}

    /// Called when `state` changed: redraws by default; subclasses update what they show.
    open func stateDidChange() { setNeedsDisplay() }

    // MARK: Touches, as UIControl tracks them

    open override func touchesBegan(_ touches: Set<Touch>, with event: Multihead.Event) {
        guard isEnabled, trackedTouch == nil, let touch = touches.first else { return }
        trackedTouch = touch
        isTouchInside = true
        isHighlighted = true
        isTracking = beginTracking(touch, with: event)
        var events: Event = .touchDown
        if let last = lastTouchUp, event.timestamp - last.time <= TapGestureRecognizer.interval,
           distance(last.at, touch.locationOnDesktop) <= TapGestureRecognizer.slop {
            events.insert(.touchDownRepeat)
        }
        sendActions(for: events)
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: Multihead.Event) {
        guard let touch = trackedTouch, touches.contains(touch) else { return }
        let inside = bounds.contains(touch.location(in: self))
        if isTracking { isTracking = continueTracking(touch, with: event) }
        var events: Event = inside ? .touchDragInside : .touchDragOutside
        if inside != isTouchInside { events.insert(inside ? .touchDragEnter : .touchDragExit) }
        isTouchInside = inside
        isHighlighted = inside
        sendActions(for: events)
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: Multihead.Event) {
        guard let touch = trackedTouch, touches.contains(touch) else { return }
        let inside = bounds.contains(touch.location(in: self))
        finishTouch()
        if isTracking { endTracking(touch, with: event) }
        isTracking = false
        lastTouchUp = (event.timestamp, touch.locationOnDesktop)
        sendActions(for: inside ? upInsideEvents : .touchUpOutside)
    }

    open override func touchesCancelled(_ touches: Set<Touch>, with event: Multihead.Event?) {
        guard let touch = trackedTouch, touches.contains(touch) else { return }
        cancelTouch(with: event)
    }

    /// What a touch up inside sends: `.touchUpInside`; a button adds `.primaryActionTriggered`.
    var upInsideEvents: Event { .touchUpInside }

    private func finishTouch() {
        trackedTouch = nil
        isTouchInside = false
        isHighlighted = false
    }

    private func cancelTouch(with event: Multihead.Event?) {
        finishTouch()
        if isTracking { cancelTracking(with: event) }
        isTracking = false
        sendActions(for: .touchCancel)
    }
}
