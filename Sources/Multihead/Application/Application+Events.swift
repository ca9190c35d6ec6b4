extension Application {
    /// Delivers an event (UIApplication.sendEvent): a pointer event goes to the frontmost visible window
    /// containing the point on that screen, then to its hit-test view and up the responder chain; a key
    /// event goes to the key window's first responder, or is dropped when there is no key window.
    public func sendEvent(_ event: Event) {
        switch event.kind {
        case .pointerDown, .pointerMoved, .pointerUp: sendPointer(event)
        case .keyDown, .keyUp: sendKey(event)
        }
    }

    /// The frontmost visible window whose frame contains a desktop point (on the named screen, if given).
    public func window(at desktopPoint: Point, onScreenNamed screenName: String? = nil) -> Window? {
        guard desktopPoint.isFinite else { return nil }
        return frontmostWindow { w in
            guard !w.isHidden else { return false }
            if let screenName, w.screen.name != screenName { return false }
            return w.frameOnDesktop.contains(desktopPoint)
        }
    }

    private func sendPointer(_ event: Event) {
        guard let p = event.location, p.isFinite else { return }
        switch event.kind {
        case .pointerDown:
            // The frontmost window whose hit test finds a view; a window that lets the touch pass (its hit
            // test says nil) hands it to the windows behind, as pass-through overlays do in UIKit.
            var hit: (Window, View)?
            _ = frontmostWindow { w in
                guard !w.isHidden else { return false }
                if let name = event.screenName, w.screen.name != name { return false }
                guard w.frameOnDesktop.contains(p), let view = w.hitTest(w.pointFromDesktop(p), with: event) else { return false }
                hit = (w, view)
                return true
            }
            guard let (w, view) = hit else { return }
            let touch = Touch(window: w, view: view, at: p)
            tracking.touches[event.pointerID] = touch
            // Recognizers first (the hit view's, then its superviews'), then the view, as in UIKit.
            touch.recognizers = Self.recognizers(from: view)
            for r in touch.recognizers {
                r.onRecognize = { [weak touch] r in touch.map { Self.recognized(r, $0) } }
                r.touchesBegan([touch], with: event)
            }
            if !touch.claimed { view.touchesBegan([touch], with: event) }
        case .pointerMoved:
            guard let touch = tracking.touches[event.pointerID] else { return }
            touch.phase = .moved
            touch.locationOnDesktop = p
            for r in touch.recognizers where r.touches.contains(touch) { r.touchesMoved([touch], with: event) }
            if !touch.claimed { touch.view?.touchesMoved([touch], with: event) }
        default:
            guard let touch = tracking.touches.removeValue(forKey: event.pointerID) else { return }
            touch.phase = .ended
            touch.locationOnDesktop = p
            for r in touch.recognizers where r.touches.contains(touch) { r.touchesEnded([touch], with: event) }
            if !touch.claimed { touch.view?.touchesEnded([touch], with: event) }
            Self.finishRecognizers(of: touch)
        }
    }

    /// The enabled recognizers of a view and of its superviews up to its window, nearest first.
    private static func recognizers(from view: View) -> [GestureRecognizer] {
        var found: [GestureRecognizer] = []
        var v: View? = view
        while let cur = v {
            found += (cur.gestureRecognizers ?? []).filter(\.isEnabled)
            v = cur.superview
        }
        return found
    }

    /// A recognizer recognized its gesture: the touch's other recognizers fail, and the hit view loses
    /// the touch (`touchesCancelled`) when the recognizer cancels touches in view.
    private static func recognized(_ r: GestureRecognizer, _ touch: Touch) {
        for other in touch.recognizers where other !== r && other.state == .possible { other.setState(.failed) }
        guard r.cancelsTouchesInView, !touch.claimed else { return }
        touch.claimed = true
        let phase = touch.phase
        touch.phase = .cancelled
        touch.view?.touchesCancelled([touch], with: nil)
        touch.phase = phase
    }

    /// After a touch's end or cancellation: recognizers with no touches left start again.
    private static func finishRecognizers(of touch: Touch) {
        for r in touch.recognizers where r.touches.isEmpty {
            r.onRecognize = nil
            r.reset()
        }
    }

    private func sendKey(_ event: Event) {
        guard let key = event.key else { return }
        if event.kind == .keyDown {
            guard let w = keyWindow else { return }
            let responder = w.firstResponder ?? w
            let press = Press(key: key)
            tracking.presses[key.trackingID] = TrackedPress(press, responder: responder, windowID: ObjectIdentifier(w))
            responder.pressesBegan([press], with: event)
        } else if let tracked = tracking.presses.removeValue(forKey: key.trackingID) {
            // The end goes where the press began.
            var press = tracked.press
            press.phase = .ended
            tracked.responder?.pressesEnded([press], with: event)
        } else if let w = keyWindow {
            (w.firstResponder ?? w).pressesEnded([Press(key: key, phase: .ended)], with: event)
        }
    }

    /// Cancels the touches and presses in progress in a window: it was hidden, released or moved, or its
    /// screen disconnected. They get `touchesCancelled` / `pressesCancelled` and never end.
    func cancelInput(in window: Window) { cancelInput(windowID: ObjectIdentifier(window)) }

    func cancelInput(windowID: ObjectIdentifier) {
        for (id, touch) in tracking.touches where touch.windowID == windowID {
            tracking.touches[id] = nil
            touch.phase = .cancelled
            for r in touch.recognizers where r.touches.contains(touch) { r.touchesCancelled([touch], with: nil) }
            if !touch.claimed { touch.view?.touchesCancelled([touch], with: nil) }
            Self.finishRecognizers(of: touch)
        }
        for (name, tracked) in tracking.presses where tracked.windowID == windowID {
            tracking.presses[name] = nil
            var press = tracked.press
            press.phase = .cancelled
            tracked.responder?.pressesCancelled([press], with: nil)
        }
    }
}
