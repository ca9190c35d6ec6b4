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
    public var windows: [Window] {
        stacking.backToFront.compactMap { liveWindows[$0]?.window }
    }

    /// The key window, if any: the one that gets events without a location.
    public var keyWindow: Window? { keyWindowStorage }

    /// The window notifications as an async sequence, from now on.
    public func windowEvents() -> AsyncStream<WindowEvent> { windowListeners.stream() }

    /// Calls `handler` on the main actor for every window event from now on, right after its notification
    /// is posted; keep the returned observation as long as you want them.
    public func onWindowEvent(_ handler: @escaping @MainActor (WindowEvent) -> Void) -> EventObservation {
        windowListeners.observe(handler)
    }

    var allWindows: [Window] { liveWindows.values.compactMap(\.window) }

    func register(_ w: Window) {
        let id = ObjectIdentifier(w)
        liveWindows[id] = WeakWindow(window: w)
        nextShowSequence += 1
        stacking.set(id, level: w.levelStorage.rawValue, sequence: nextShowSequence)
    }

    func unregister(_ id: ObjectIdentifier) {
        liveWindows[id] = nil
        cancelInput(windowID: id)
        stacking.remove(id)
        // A released key window leaves no key window behind it, or the next candidate.
        if keyWindowStorage == nil, let next = keyWindowCandidate() { makeKey(next) }
        setNeedsFlush()
    }

    /// Shows a window in front of its level (or brings a visible one to the front of its level).
    func show(_ w: Window) {
        let wasHidden = w.hiddenStorage
        // The root view controller's viewWillAppear before the window shows, viewDidAppear after.
        let appear = { (change: () -> Void) in
            if wasHidden, let vc = w.rootViewControllerStorage { vc.transitionAppearance(visible: true, change) } else { change() }
        }
        appear {
            w.hiddenStorage = false
            restack(w, bringToFront: true)
            w.setNeedsDisplay()
            if wasHidden { post(Window.didBecomeVisibleNotification, w, .becameVisible(w)) }
        }
    }

    /// Hides a window; a key window resigns and the frontmost visible normal-level window on the main
    /// screen becomes key, if there is one.
    func hide(_ w: Window) {
        guard !w.hiddenStorage else { return }
        let change = {
            w.hiddenStorage = true
            self.stackingDidChange()
            self.cancelInput(in: w)
            self.post(Window.didBecomeHiddenNotification, w, .becameHidden(w))
        }
        if let vc = w.rootViewControllerStorage { vc.transitionAppearance(visible: false, change) } else { change() }
        if keyWindowStorage === w {
            keyWindowStorage = nil
            w.resignKey()
            post(Window.didResignKeyNotification, w, .resignedKey(w))
            if let next = keyWindowCandidate() { makeKey(next) } else { backend.focus(nil) }
        }
    }

    func makeKey(_ w: Window) {
        guard keyWindowStorage !== w, w.canBecomeKey else { return }
        let old = keyWindowStorage
        keyWindowStorage = w
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
        let id = stacking.firstFromFront { id in
            guard let w = liveWindows[id]?.window else { return false }
            return !w.hiddenStorage && w.alpha > 0 && w.levelStorage == .normal && w.screenStorage === main && w.canBecomeKey
        }
        return id.flatMap { liveWindows[$0]?.window }
    }

    func restack(_ w: Window, bringToFront: Bool) {
        let id = ObjectIdentifier(w)
        var sequence = stacking.key(of: id)?.sequence ?? 0
        if bringToFront || sequence == 0 {
            nextShowSequence += 1
            sequence = nextShowSequence
        }
        stacking.set(id, level: w.levelStorage.rawValue, sequence: sequence)
        stackingDidChange()
    }

    func stackingDidChange() { setNeedsFlush() }

    /// What the backend must show now.
    func currentScene() -> Scene {
        var shown: [PresentedWindow] = []
        for id in stacking.backToFront {
            guard let w = liveWindows[id]?.window, !w.hiddenStorage else { continue }
            shown.append(PresentedWindow(
                window: w, screenName: w.screenStorage.name, frameOnDesktop: w.frameOnDesktop,
                level: w.levelStorage, needsDisplay: w.needsDisplay,
                softwareBrightness: w.screenStorage.softwareBrightness, scale: w.screenStorage.scale))
        }
        return Scene(windows: shown)
    }

    private func post(_ name: Notification.Name, _ w: Window, _ event: WindowEvent) {
        NotificationCenter.default.post(name: name, object: w)
        windowListeners.send(event)
    }
}
