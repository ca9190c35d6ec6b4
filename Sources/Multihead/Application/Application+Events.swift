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
        let id = stacking.firstFromFront { id in
            guard let w = liveWindows[id]?.window, !w.hiddenStorage else { return false }
            if let screenName, w.screenStorage.name != screenName { return false }
            return w.frameOnDesktop.contains(desktopPoint)
        }
        return id.flatMap { liveWindows[$0]?.window }
    }

    private func sendPointer(_ event: Event) {
        guard let p = event.location, p.isFinite else { return }
        switch event.kind {
        case .pointerDown:
            guard let w = window(at: p, onScreenNamed: event.screenName),
                  let view = w.hitTest(w.pointFromDesktop(p), with: event) else { return }
            let touch = Touch(window: w, view: view, at: p)
            trackedTouches[event.pointerID] = touch
            view.touchesBegan([touch], with: event)
        case .pointerMoved:
            guard let touch = trackedTouches[event.pointerID] else { return }
            touch.phase = .moved
            touch.locationOnDesktop = p
            touch.view.touchesMoved([touch], with: event)
        default:
            guard let touch = trackedTouches.removeValue(forKey: event.pointerID) else { return }
            touch.phase = .ended
            touch.locationOnDesktop = p
            touch.view.touchesEnded([touch], with: event)
        }
    }

    private func sendKey(_ event: Event) {
        guard let key = event.key, let w = keyWindow else { return }
        let responder = w.firstResponder ?? w
        let presses: Set<Press> = [Press(key: key)]
        if event.kind == .keyDown {
            responder.pressesBegan(presses, with: event)
        } else {
            responder.pressesEnded(presses, with: event)
        }
    }
}
