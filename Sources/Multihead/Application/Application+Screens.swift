import Foundation

/// A screen event, the `AsyncSequence` form of the screen notifications.
public enum ScreenEvent: Sendable {
    /// `Screen.didConnectNotification`.
    case connect(Screen)
    /// `Screen.didDisconnectNotification`.
    case disconnect(Screen)
    /// `Screen.modeDidChangeNotification`; `previous` is what the screen was before (its frame and mode),
    /// so that a move can be told from a mode change.
    case modeChange(Screen, previous: ScreenDescription)
    /// `Screen.brightnessDidChangeNotification`.
    case brightnessChange(Screen)
    /// `Screen.mainDidChangeNotification`: the screen is the main screen now.
    case mainChange(Screen)

    /// The screen the event is about.
    public var screen: Screen {
        switch self {
        case .connect(let s), .disconnect(let s), .modeChange(let s, _), .brightnessChange(let s), .mainChange(let s): s
        }
    }

    /// The event's name as the command line prints it: connect, disconnect, modeChange, brightnessChange,
    /// mainChange.
    public var name: String {
        switch self {
        case .connect: "connect"
        case .disconnect: "disconnect"
        case .modeChange: "modeChange"
        case .brightnessChange: "brightnessChange"
        case .mainChange: "mainChange"
        }
    }

    /// The notification this event is posted as.
    public var notificationName: Notification.Name {
        switch self {
        case .connect: Screen.didConnectNotification
        case .disconnect: Screen.didDisconnectNotification
        case .modeChange: Screen.modeDidChangeNotification
        case .brightnessChange: Screen.brightnessDidChangeNotification
        case .mainChange: Screen.mainDidChangeNotification
        }
    }
}

extension Application {
    /// The screen notifications as an async sequence, from now on, in the order they are posted.
    public func screenEvents() -> AsyncStream<ScreenEvent> { screenListeners.stream() }

    /// Calls `handler` on the main actor for every screen event from now on, right after its notification
    /// is posted: the Swift 6 way to react without `MainActor.assumeIsolated`. Keep the returned
    /// observation as long as you want the events; releasing it ends them.
    ///
    /// ```swift
    /// let observation = app.onScreenEvent { event in
    ///     if case .connect(let screen) = event { print("connected", screen.name) }
    /// }
    /// ```
    public func onScreenEvent(_ handler: @escaping @MainActor (ScreenEvent) -> Void) -> EventObservation {
        screenListeners.observe(handler)
    }

    /// Re-reads the monitors from the backend now and posts what changed, as an event from the backend
    /// would; the backend does this by itself on every change, so this is only for forcing a re-sync.
    public func refreshScreens() throws {
        screensDidChange(try backend.readScreens())
    }

    /// The snapshot the model holds now, in `screens` order.
    public var screenSnapshot: [ScreenDescription] { screens.map(\.snapshot) }

    /// Installs a snapshot without notifications (at start, or when the backend is replaced).
    func replaceScreens(with snapshot: [ScreenDescription]) {
        for s in screens { s.markDisconnected() }
        screens = ScreenDiff.ordered(nonEmpty(snapshot)).map { Screen($0, application: self) }
        updateMirrors()
        for w in allWindows where !w.screen.isConnected { w.moveToMainAfterDisconnect() }
        setNeedsFlush()
    }

    /// The model's event input for screens: diff against the previous snapshot, update the `Screen`
    /// objects, then post connect, disconnect and mode-change notifications, exactly one per change.
    func screensDidChange(_ snapshot: [ScreenDescription]) {
        let new = nonEmpty(snapshot)
        // The common re-read finds the screens as they are (a resync, events that changed nothing): equal
        // in the model's order, it costs a comparison, not the diff and the reordering (nearly all of the
        // model's share of a full re-read). Each screen still takes its new value: the modes' backend ids
        // are not part of equality.
        let order = ScreenDiff.order(of: new)
        if order.count == screens.count, zip(screens, order).allSatisfy({ $0.snapshot == new[$1] }) {
            for (s, i) in zip(screens, order) { s.update(new[i]) }
            return
        }
        let changes = ScreenDiff.changes(from: screenSnapshot, to: new)
        guard !changes.isEmpty else {
            // What is not a change (a new primary, a physical size) still updates the screens, silently.
            reorderScreens(new)
            return
        }
        var byName = Dictionary(screens.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var events: [ScreenEvent] = []
        for change in changes {
            switch change {
            case .connect(let d):
                let s = Screen(d, application: self)
                byName[d.name] = s
                events.append(.connect(s))
            case .disconnect(let d):
                guard let s = byName.removeValue(forKey: d.name) else { continue }
                s.markDisconnected()
                events.append(.disconnect(s))
            case .modeChange(let before, let d):
                guard let s = byName[d.name] else { continue }
                s.update(d)
                events.append(.modeChange(s, previous: before))
            case .brightnessChange(_, let d):
                guard let s = byName[d.name] else { continue }
                s.update(d)
                s.adoptHardwareBrightness()
                events.append(.brightnessChange(s))
            case .mainChange(let d):
                guard let s = byName[d.name] else { continue }
                events.append(.mainChange(s))
            }
        }
        for d in new {
            // The stand-in comes and goes silently.
            if byName[d.name] == nil, d.isStandIn { byName[d.name] = Screen(d, application: self) }
            byName[d.name]?.update(d)
        }
        for (name, s) in byName where s.snapshot.isStandIn && !new.contains(where: { $0.name == name }) {
            byName[name] = nil
            s.markDisconnected()
        }
        screens = ScreenDiff.ordered(new).compactMap { byName[$0.name] }
        updateMirrors()
        setNeedsFlush()
        deliver(events)
    }

    private func reorderScreens(_ new: [ScreenDescription]) {
        let byName = Dictionary(screens.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for d in new { byName[d.name]?.update(d) }
        let ordered = ScreenDiff.ordered(new).compactMap { byName[$0.name] }
        if ordered.map(\.name) != screens.map(\.name) { screens = ordered }
        updateMirrors()
    }

    /// Posts the events now, or queues them while suspended; after the handlers of a disconnect ran,
    /// windows still on the dead screen are hidden and move to the main screen.
    private func deliver(_ events: [ScreenEvent]) {
        let work = { [weak self] in
            guard let self else { return }
            for e in events { post(e) }
            for w in allWindows where !w.screen.isConnected { w.moveToMainAfterDisconnect() }
            // A screen's scale that changed (a mode change, the desktop's setting): its windows' views are told.
            for w in allWindows { w.traitsMayHaveChanged() }
        }
        if state == .suspended { loop.queuedWhileSuspended.append(work) } else { work() }
    }

    /// Posts a screen notification on `NotificationCenter.default` and yields it to the async streams.
    func post(_ event: ScreenEvent) {
        var info: [AnyHashable: Any]?
        if case .modeChange(_, let previous) = event { info = [Screen.previousDescriptionKey: previous] }
        NotificationCenter.default.post(name: event.notificationName, object: event.screen, userInfo: info)
        screenListeners.send(event)
    }

    private func nonEmpty(_ snapshot: [ScreenDescription]) -> [ScreenDescription] {
        ScreenDescription.nonEmpty(snapshot, standInSize: screens.first?.frame.size ?? DetachedBackend.standInSize)
    }

    private func updateMirrors() {
        let names = ScreenDiff.mirrors(in: screens.map(\.snapshot))
        for (s, name) in zip(screens, names) { s.mirrored = name.flatMap { n in screens.first { $0.name == n } } }
    }

    func screenNeedsRedraw(_ screen: Screen) {
        for w in allWindows where w.screen === screen { w.setNeedsDisplay() }
    }

    func connectionLost(_ error: any Error) {
        guard connectionError == nil else { return }
        connectionError = error
        Application.logger.error("display backend stopped: \(error)")
        endRuns(throwing: error)
    }
}
