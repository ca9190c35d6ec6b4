import Dispatch

/// Calls back on the main actor once per frame of a screen (CADisplayLink), until invalidated; it stops
/// by itself when its screen disconnects. Like CADisplayLink, the run loop keeps it alive until then.
@MainActor
public final class DisplayLink {
    /// The screen whose frames it follows.
    public private(set) weak var screen: Screen?
    /// The time of the frame being handled, in seconds on the monotonic clock.
    public private(set) var timestamp: Double = 0
    /// The time of the next frame: finish drawing before it.
    public private(set) var targetTimestamp: Double = 0
    /// Frames per second wanted; 0 (the default) means the screen's `maximumFramesPerSecond`. Values outside
    /// 0…the screen's rate are clamped.
    public var preferredFramesPerSecond: Int = 0 {
        didSet { if preferredFramesPerSecond < 0 { preferredFramesPerSecond = 0 } }
    }
    /// While true, no callbacks come; setting it false resumes on the next frame boundary.
    public var isPaused = false {
        didSet { if oldValue && !isPaused, isValid { scheduleNext(after: now()) } }
    }
    /// Whether it still calls back.
    public private(set) var isValid = true

    private let callback: @MainActor (DisplayLink) -> Void
    private var timer: (any DispatchSourceTimer)?
    private var nextTarget: Double = 0

    init(screen: Screen, callback: @escaping @MainActor (DisplayLink) -> Void) {
        self.screen = screen
        self.callback = callback
        let t = DispatchSource.makeTimerSource(queue: .main)
        t.setEventHandler { [self] in
            MainActor.assumeIsolated { self.fire() }
        }
        timer = t
        nextTarget = now() + duration
        arm()
        t.resume()
    }

    /// Seconds between frames: 1 / the effective frame rate (the screen's, or the preferred one).
    public var duration: Double {
        let maxFPS = screen?.maximumFramesPerSecond ?? 60
        let fps = preferredFramesPerSecond > 0 ? min(preferredFramesPerSecond, maxFPS) : maxFPS
        return 1 / Double(max(1, fps))
    }

    /// Stops the callbacks for good and lets the link go.
    public func invalidate() {
        guard isValid else { return }
        isValid = false
        timer?.cancel()
        timer = nil
    }

    private func fire() {
        guard isValid else { return }
        guard let screen, screen.isConnected else { return invalidate() }
        if isPaused { return }
        timestamp = nextTarget
        targetTimestamp = nextTarget + duration
        callback(self)
        scheduleNext(after: timestamp)
    }

    /// The next frame boundary after `t` that is still ahead (missed frames are skipped, not queued).
    private func scheduleNext(after t: Double) {
        let d = duration
        var next = t + d
        let current = now()
        if next <= current { next += (((current - next) / d).rounded(.down) + 1) * d }
        nextTarget = next
        arm()
    }

    private func arm() {
        timer?.schedule(deadline: DispatchTime(uptimeNanoseconds: UInt64(max(0, nextTarget) * 1e9)), leeway: .nanoseconds(0))
    }

    private func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

extension Screen {
    /// A display link that calls `callback` once per frame of this screen, on the main actor, at the
    /// screen's refresh rate (60 Hz when the mode does not say).
    public func displayLink(_ callback: @escaping @MainActor (DisplayLink) -> Void) -> DisplayLink {
        let link = DisplayLink(screen: self, callback: callback)
        if !isConnected { link.invalidate() }
        displayLinks.append(WeakDisplayLink(link: link))
        return link
    }

    /// Stops every display link of this screen (it disconnected).
    func invalidateDisplayLinks() {
        for l in displayLinks { l.link?.invalidate() }
        displayLinks.removeAll()
    }
}

/// A weak reference to a display link.
struct WeakDisplayLink {
    weak var link: DisplayLink?
}
