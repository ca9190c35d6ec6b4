/// An object that takes part in event handling (UIResponder): what it does not handle goes to `next`.
@MainActor
open class Responder {
    /// Makes a responder.
    public init() {}

    /// The responder that gets what this one does not handle.
    open var next: Responder? { nil }

    /// A touch began in this responder's view; the default passes it on to `next`.
    open func touchesBegan(_ touches: Set<Touch>, with event: Event) { next?.touchesBegan(touches, with: event) }
    /// A touch moved; the default passes it on to `next`.
    open func touchesMoved(_ touches: Set<Touch>, with event: Event) { next?.touchesMoved(touches, with: event) }
    /// A touch ended; the default passes it on to `next`.
    open func touchesEnded(_ touches: Set<Touch>, with event: Event) { next?.touchesEnded(touches, with: event) }
    /// A touch was cancelled (its window was hidden, released or moved, or its screen disconnected): it
    /// will not end. The default passes it on to `next`.
    open func touchesCancelled(_ touches: Set<Touch>, with event: Event?) { next?.touchesCancelled(touches, with: event) }
    /// A key went down; the default passes it on to `next`.
    open func pressesBegan(_ presses: Set<Press>, with event: Event) { next?.pressesBegan(presses, with: event) }
    /// A key went up; the default passes it on to `next`.
    open func pressesEnded(_ presses: Set<Press>, with event: Event) { next?.pressesEnded(presses, with: event) }
    /// A key held down was cancelled (as a touch is): it will not end. The default passes it on to `next`.
    open func pressesCancelled(_ presses: Set<Press>, with event: Event?) { next?.pressesCancelled(presses, with: event) }

    /// Whether this responder can take key events; false by default.
    open var canBecomeFirstResponder: Bool { false }

    /// Makes this the first responder of its window, if it can; returns whether it did.
    @discardableResult
    open func becomeFirstResponder() -> Bool {
        guard canBecomeFirstResponder, let w = responderWindow else { return false }
        w.firstResponder = self
        return true
    }

    /// Stops being the first responder of its window.
    @discardableResult
    open func resignFirstResponder() -> Bool {
        if let w = responderWindow, w.firstResponder === self { w.firstResponder = nil }
        return true
    }

    /// Whether this is its window's first responder.
    public var isFirstResponder: Bool { responderWindow?.firstResponder === self }

    var responderWindow: Window? {
        var r: Responder? = self
        while let cur = r {
            if let w = cur as? Window { return w }
            if let v = cur as? View { r = v.superview ?? v.viewController?.next; continue }
            r = cur.next
        }
        return nil
    }
}
