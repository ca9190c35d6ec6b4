extension Application {
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
