extension Application {
    /// A frame clock (the animator, a display link) drives this application's frames from now on: the
    /// backend learns it when the first one starts.
    func frameClockStarted(by clock: AnyObject) {
        guard loop.frameClocks.insert(ObjectIdentifier(clock)).inserted, loop.frameClocks.count == 1 else { return }
        backend.frameClockChanged(isRunning: true)
    }

    /// A frame clock stopped: the backend learns it when the last one has.
    func frameClockStopped(by clock: AnyObject) {
        guard loop.frameClocks.remove(ObjectIdentifier(clock)) != nil, loop.frameClocks.isEmpty else { return }
        backend.frameClockChanged(isRunning: false)
    }

    /// The start of a clocked frame: until `endFrame()`, changes ask for no flush of their own.
    func beginFrame() { loop.inClockedFrame = true }

    /// Handles the events that came since the last frame (the clock's frames are what read them while it
    /// runs), so that the frame shows what they did.
    func handleFrameEvents() { backend.processPendingEvents() }

    /// The end of a clocked frame: what it changed is pushed now, not in a turn of its own.
    func endFrame() {
        loop.inClockedFrame = false
        flush()
    }
}
