import Foundation

extension Application {
    /// Launches (calling the delegate's `applicationDidFinishLaunching` once) and makes the app active.
    public func launch() {
        guard !loop.launched else { return }
        loop.launched = true
        delegate?.applicationDidFinishLaunching(self)
        transition(to: .active)
        flush()
    }

    /// Runs until `stop()` is called; throws the backend's error if its connection is lost.
    ///
    /// The backend watches its connection from the main run loop; this only waits.
    public func run() async throws {
        launch()
        if let e = connectionError { throw e }
        // A stop() that came before run() (from launch, or a handler) ends this run at once.
        if loop.stopRequested {
            loop.stopRequested = false
            return
        }
        // Every waiting run() ends on every path: stop(), the connection's loss, or its task's cancellation.
        let waiter = RunContinuation.ID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    c.resume(throwing: CancellationError())
                } else {
                    loop.runContinuations.append(RunContinuation(waiter, c))
                }
            }
        } onCancel: {
            Task { @MainActor in self.endRuns(where: { $0.id === waiter }, throwing: CancellationError()) }
        }
    }

    /// Ends `run()` (every one waiting); called before `run()`, the next `run()` returns at once.
    public func stop() {
        if loop.runContinuations.isEmpty {
            loop.stopRequested = true
        } else {
            endRuns(throwing: nil)
        }
    }

    /// Resumes the waiting runs that `which` picks (all by default), with an error or without; each is
    /// taken off the list before it is resumed, so none is resumed twice.
    func endRuns(where which: (RunContinuation) -> Bool = { _ in true }, throwing error: (any Error)?) {
        let ending = loop.runContinuations.filter(which)
        guard !ending.isEmpty else { return }
        loop.runContinuations.removeAll(where: which)
        for r in ending {
            if let error { r.continuation.resume(throwing: error) } else { r.continuation.resume() }
        }
    }

    /// Calls the delegate's `applicationWillTerminate`, stops the run loop and the backend.
    public func terminate() {
        delegate?.applicationWillTerminate(self)
        stop()
        backend.stop()
    }

    /// Runs the loop until `condition` holds or `timeout` passes; returns whether it held.
    ///
    /// Each turn handles the backend's pending events and pushes pending changes to it, so tests need not
    /// depend on the timing of the main queue.
    @discardableResult
    public func run(until condition: () -> Bool, timeout: Duration = .seconds(5)) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            backend.processPendingEvents()
            flush()
            if condition() { return true }
            if clock.now >= deadline || connectionError != nil { return condition() }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Moves the application to another lifecycle state, calling the delegate and posting the notifications
    /// in UIKit's order: leaving `.active` is `willResignActive`; going to the background `didEnterBackground`;
    /// leaving it `willEnterForeground`; arriving at `.active` `didBecomeActive` (the delegate first, then the
    /// notification). Leaving `.suspended` delivers the screen notifications queued meanwhile, in order.
    public func transition(to new: State) {
        let old = state
        guard new != old else { return }
        let wasBackground = old == .background || old == .suspended
        let isBackground = new == .background || new == .suspended
        if old == .active {
            delegate?.applicationWillResignActive(self)
            NotificationCenter.default.post(name: Application.willResignActiveNotification, object: self)
        }
        if wasBackground && !isBackground {
            delegate?.applicationWillEnterForeground(self)
            NotificationCenter.default.post(name: Application.willEnterForegroundNotification, object: self)
        }
        state = new
        if !wasBackground && isBackground {
            delegate?.applicationDidEnterBackground(self)
            NotificationCenter.default.post(name: Application.didEnterBackgroundNotification, object: self)
        }
        if new == .active {
            delegate?.applicationDidBecomeActive(self)
            NotificationCenter.default.post(name: Application.didBecomeActiveNotification, object: self)
        }
        if old == .suspended {
            let queued = loop.queuedWhileSuspended
            loop.queuedWhileSuspended = []
            for work in queued { work() }
        }
    }

    /// The backend says whether one of the application's windows has the input focus: a loop.launched
    /// application in the foreground is active while one does, inactive while none does.
    func focusChanged(appHasFocus: Bool) {
        guard loop.launched else { return }
        if appHasFocus, state == .inactive { transition(to: .active) }
        if !appHasFocus, state == .active { transition(to: .inactive) }
    }

    /// Lays out every view that needs it in the visible windows, back to front, parents before children.
    func layoutVisibleWindows() { layout(windows.filter { !$0.isHidden }) }

    /// Lays out these windows' views that need it. What layout changed is drawn by this flush; layout it
    /// asked for again waits for the next turn.
    private func layout(_ visible: [Window]) {
        for w in visible { w.layoutSubtree() }
        loop.needsFlush = false
        for w in visible where w.subtreeNeedsLayout || w.needsLayout { windowNeedsFlush(w) }
    }

    /// Asks for the scene to be pushed to the backend at the end of this turn of the run loop: every
    /// visible window (the order, the set, or a screen may have changed).
    func setNeedsFlush() {
        loop.sceneNeedsAll = true
        scheduleFlush()
    }

    /// Asks for a flush because one window's pixels, layout or place changed: the next scene may list
    /// only the windows that did.
    func windowNeedsFlush(_ w: Window) {
        if !loop.sceneNeedsAll, !w.isListedForFlush {
            w.isListedForFlush = true
            loop.changedWindows.append(UnretainedWindow(window: w))
        }
        scheduleFlush()
    }

    private func scheduleFlush() {
        loop.needsFlush = true
        guard !loop.flushScheduled, !loop.inClockedFrame else { return }
        loop.flushScheduled = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                self?.loop.flushScheduled = false
                self?.flush()
            }
        }
    }

    /// Pushes pending window changes to the backend now (the run loop does it every turn), as
    /// `CATransaction.flush()` does.
    public func flush() {
        guard loop.needsFlush else { return }
        // Each read once: each read of a stored reference retains it (the application's through its side
        // table).
        let animator = frameClock.animator, backend = self.backend
        // Before the flag clears: the damage of moving views asks for no flush of its own.
        animator.prepareFrame()
        loop.needsFlush = false
        // Taken before layout: what layout asks for again belongs to the next flush.
        let needsAll = loop.sceneNeedsAll || !backend.acceptsPartialScenes
        // The list is taken whole (what layout adds goes to a new one); a window released since it was
        // listed is simply gone from it. Into a buffer kept empty between flushes: a frame allocates no
        // array for it, and holds its windows only while it draws them.
        var changed: [Window] = []
        swap(&changed, &loop.flushBuffer)
        for entry in loop.changedWindows {
            guard let w = entry.window else { continue }
            w.isListedForFlush = false
            changed.append(w)
        }
        // Emptied from the end: removeAll goes through the runtime, which reads the element type's metadata.
        while !loop.changedWindows.isEmpty { loop.changedWindows.removeLast() }
        loop.sceneNeedsAll = false
        var windows: [PresentedWindow] = []
        swap(&windows, &loop.sceneBuffer)
        if needsAll {
            layoutVisibleWindows()
            windows = currentScene().windows
        } else {
            // Only what changed: a frame of one window among a hundred costs one window.
            // Loops, not filter and map: a main-actor closure given to the standard library checks the
            // executor at each call, a frame's most frequent cost after the pixels.
            var visible = 0
            for i in changed.indices where !changed[i].isHidden {
                changed.swapAt(i, visible)
                visible += 1
            }
            if visible < changed.count { changed.removeLast(changed.count - visible) }
            layout(changed)
            for w in changed { windows.append(presented(w)) }
        }
        backend.present(Scene(windows: windows, isComplete: needsAll))
        animator.frameDrawn()
        // A window drawn again is drawn whole: its views' marks go with its own. Hidden windows keep their
        // marks: they are drawn when shown again.
        // Read in place, not copied: a copy retains its window, through the window's side table (it is
        // weakly referenced).
        for i in windows.indices where windows[i].needsDisplay { windows[i].window.clearNeedsDisplayInSubtree() }
        // Both buffers back for the next flush, empty: a frame allocates no array for them.
        while !windows.isEmpty { windows.removeLast() }
        loop.sceneBuffer = windows
        while !changed.isEmpty { changed.removeLast() }
        loop.flushBuffer = changed
    }
}
