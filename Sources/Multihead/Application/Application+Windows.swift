import Foundation

/// A window event, the `AsyncSequence` form of the window notifications.
public enum WindowEvent: Sendable {
    /// `Window.didBecomeVisibleNotification`.
    case becameVisible(Window)
    /// `Window.didBecomeHiddenNotification`.
    case becameHidden(Window)
    /// `Window.didBecomeKeyNotification`.
    case becameKey(Window)
    /// `Window.didResignKeyNotification`.
    case resignedKey(Window)
}

extension Application {
    /// The application's live windows, back to front: by level, then most recently shown in front.
    public var windows: [Window] { stack.backToFront }

    /// The key window, if any: the one that gets events without a location.
    public var keyWindow: Window? { stack.keyWindow }

    /// The window notifications as an async sequence, from now on.
    public func windowEvents() -> AsyncStream<WindowEvent> { windowListeners.stream() }

    /// Calls `handler` on the main actor for every window event from now on, right after its notification
    /// is posted; keep the returned observation as long as you want them.
    public func onWindowEvent(_ handler: @escaping @MainActor (WindowEvent) -> Void) -> EventObservation {
        windowListeners.observe(handler)
    }

    var allWindows: [Window] { stack.all }

    /// A window was made: it joins the stack, behind those shown after it.
    func register(_ w: Window) { stack.add(w) }

    /// A window went away: the next flush is a complete scene, which tells the backend (it lists the
    /// windows that remain).
    func unregister(_ id: ObjectIdentifier) {
        stack.remove(id)
        cancelInput(windowID: id)
        // A released key window leaves no key window behind it, or the next candidate.
        if stack.keyWindow == nil, let next = keyWindowCandidate() { makeKey(next) }
        setNeedsFlush()
    }

    /// A hidden window showed itself (and put itself in front of its level).
    func windowDidBecomeVisible(_ w: Window) { post(Window.didBecomeVisibleNotification, w, .becameVisible(w)) }

    /// A window hid itself: its input is cancelled and `didBecomeHiddenNotification` posted.
    func windowDidHide(_ w: Window) {
        stackingDidChange()
        cancelInput(in: w)
        post(Window.didBecomeHiddenNotification, w, .becameHidden(w))
    }

    /// After a window hid itself: a key window resigns, and the frontmost visible normal-level window on
    /// the main screen becomes key, if there is one.
    func windowDidFinishHiding(_ w: Window) {
        guard stack.keyWindow === w else { return }
        stack.keyWindow = nil
        w.resignKey()
        post(Window.didResignKeyNotification, w, .resignedKey(w))
        if let next = keyWindowCandidate() { makeKey(next) } else { backend.focus(nil) }
    }

    func makeKey(_ w: Window) {
        guard stack.keyWindow !== w, w.canBecomeKey else { return }
        let old = stack.keyWindow
        stack.keyWindow = w
        if let old {
            old.resignKey()
            post(Window.didResignKeyNotification, old, .resignedKey(old))
        }
        w.becomeKey()
        post(Window.didBecomeKeyNotification, w, .becameKey(w))
        backend.focus(w)
    }

    /// The seed's `findKeyWindow`: the frontmost visible window at the normal level on the main screen.
    func keyWindowCandidate() -> Window? {
        let main = mainScreen
        return frontmostWindow { w in
            !w.isHidden && w.alpha > 0 && w.windowLevel == .normal && w.screen === main && w.canBecomeKey
        }
    }

    /// The frontmost live window for which `body` is true. The windows are listed first, and `body` runs
    /// outside any access to the stack: it may call a user's override (`canBecomeKey`, `hitTest`) that
    /// shows, hides, makes or releases windows.
    func frontmostWindow(where body: (Window) -> Bool) -> Window? {
        for w in stack.backToFront.reversed() where body(w) { return w }
        return nil
    }

    func restack(_ w: Window, bringToFront: Bool) {
        stack.place(w, toFront: bringToFront)
        stackingDidChange()
    }

    func stackingDidChange() { setNeedsFlush() }

    /// What the backend must show now.
    func currentScene() -> Scene {
        Scene(windows: stack.backToFront.filter { !$0.isHidden }.map(presented))
    }

    /// One visible window as the backend shows it; takes its damage.
    func presented(_ w: Window) -> PresentedWindow {
        // The screen read once: each read retains it.
        let screen = w.screen
        return PresentedWindow(
            window: w, screenName: screen.name, frameOnDesktop: w.frameOnDesktop,
            level: w.windowLevel, needsDisplay: w.needsDisplay, damage: w.takeDamage(),
            softwareBrightness: screen.softwareBrightness, scale: screen.scale)
    }

    private func post(_ name: Notification.Name, _ w: Window, _ event: WindowEvent) {
        NotificationCenter.default.post(name: name, object: w)
        windowListeners.send(event)
    }
}
