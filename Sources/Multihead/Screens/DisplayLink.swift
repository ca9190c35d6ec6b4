import Foundation

/// The frame rates a display link may run at (CAFrameRateRange): the default (all zero) is the screen's
/// own rate.
public struct FrameRateRange: Hashable, Sendable {
    /// The lowest rate wanted. A non-finite or negative rate is refused (logged; 0, the screen's rate).
    public var minimum: Float { didSet { minimum = Self.checked(minimum, "minimum") } }
    /// The highest rate wanted. A non-finite or negative rate is refused (logged; 0, the screen's rate).
    public var maximum: Float { didSet { maximum = Self.checked(maximum, "maximum") } }
    /// The rate wanted most, if any (else `maximum`). A non-finite or negative rate is refused (logged; 0).
    public var preferred: Float? { didSet { preferred = preferred.map { Self.checked($0, "preferred") } } }

    /// A range; rates are in frames per second, and a non-finite or negative one is refused (logged; 0).
    public init(minimum: Float, maximum: Float, preferred: Float? = nil) {
        self.minimum = Self.checked(minimum, "minimum")
        self.maximum = Self.checked(maximum, "maximum")
        self.preferred = preferred.map { Self.checked($0, "preferred") }
    }

    /// A rate as given, or 0 (the screen's own rate) for one that is not finite or below 0.
    private static func checked(_ rate: Float, _ name: String) -> Float {
        guard !rate.isFinite || rate < 0 else { return rate }
        Application.logger.warning("refused \(name) frame rate \(rate); using 0 (the screen's rate)")
        return 0
    }

    /// The screen's own rate.
    public static let `default` = FrameRateRange(minimum: 0, maximum: 0, preferred: 0)
}

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
    /// The rates wanted (UIKit's replacement for `preferredFramesPerSecond`): the preferred rate (else the
    /// maximum), within the minimum and the screen's rate. The default leaves `preferredFramesPerSecond`
    /// in charge.
    public var preferredFrameRateRange: FrameRateRange = .default

    /// Whether it is in a run loop (`add(to:forMode:)`, or made by `Screen.displayLink(_:)`) and valid.
    public var isScheduled: Bool { isAdded && isValid }
    /// Whether it was added to a run loop and not removed since.
    private var isAdded = false

    /// While true, no callbacks come; setting it false resumes on the next frame boundary.
    public var isPaused = false {
        didSet { if oldValue != isPaused { clockChanged(from: now()) } }
    }
    /// Whether it still calls back: not invalidated, and its screen still connected (a screen that
    /// disconnects ends its links, and the frame clock, which keeps them, lets them go).
    public var isValid: Bool { !isInvalidated && screen?.isConnected == true }
    private var isInvalidated = false

    private let callback: @MainActor (DisplayLink) -> Void
    /// The time of its next frame, on its application's frame clock, while it is scheduled.
    private var nextTarget: Double = 0

    /// Makes a link for a screen that calls `handler` once per frame, from when it is added to a run loop
    /// (as UIKit's `CADisplayLink`: `link.add(to: .main, forMode: .common)`).
    public init(screen: Screen, handler: @escaping @MainActor (DisplayLink) -> Void) {
        self.screen = screen
        self.callback = handler
    }

    /// Starts the callbacks on the main run loop (the only one this package drives; any mode).
    public func add(to runLoop: RunLoop, forMode mode: RunLoop.Mode) {
        guard isValid, !isAdded else { return }
        isAdded = true
        clockChanged(from: now())
    }

    /// Stops the callbacks until it is added again.
    public func remove(from runLoop: RunLoop, forMode mode: RunLoop.Mode) {
        guard isAdded else { return }
        isAdded = false
        clockChanged(from: now())
    }

    /// Seconds between frames: 1 / the effective frame rate (the screen's, or the preferred one).
    public var duration: Double { 1 / Double(max(1, framesPerSecond)) }

    /// The rate the link runs at: the screen's, lowered by `preferredFrameRateRange` or
    /// `preferredFramesPerSecond`.
    public var framesPerSecond: Int {
        let maxFPS = screen?.maximumFramesPerSecond ?? 60
        let range = preferredFrameRateRange
        if range != .default {
            let wanted = Double(range.preferred.flatMap { $0 > 0 ? $0 : nil } ?? range.maximum)
            // Every rate is finite and at least 0 (the range checks them); the minimum cannot lift the rate
            // past the screen's.
            let clamped = max(min(Double(range.minimum), Double(maxFPS)), min(wanted > 0 ? wanted : Double(maxFPS), Double(maxFPS)))
            return max(1, Int(clamped.rounded()))
        }
        return preferredFramesPerSecond > 0 ? min(preferredFramesPerSecond, maxFPS) : maxFPS
    }

    /// Stops the callbacks for good and lets the link go.
    public func invalidate() {
        guard isValid else { return }
        isInvalidated = true
        isAdded = false
        clockChanged(from: now())
    }

    /// The time of the next frame it wants from its application's frame clock: nil while it wants none
    /// (paused, not in a run loop, invalid, its screen gone).
    var nextFrameTarget: Double? {
        guard isInRunLoop, !isPaused else { return nil }
        return nextTarget
    }

    /// Whether its application's clock keeps it (as the run loop retains a CADisplayLink): valid, added,
    /// its screen connected.
    var isInRunLoop: Bool { isScheduled }

    /// The application's frame clock, which calls it back.
    private var clock: FrameClock? { screen?.application?.frameClock }

    /// Its next frame is the clock's first boundary after `t`; the clock learns what it now wants.
    private func clockChanged(from t: Double) {
        guard let clock else { return }
        nextTarget = clock.boundary(after: t, period: duration)
        clock.linkChanged(self)
    }

    /// Its frame, in the clock's frame at `t`: the callback, and the next boundary after it (frames
    /// missed are skipped, not queued).
    func frame(at t: Double, on clock: FrameClock) {
        guard let screen, screen.isConnected else { return invalidate() }
        timestamp = nextTarget
        targetTimestamp = nextTarget + duration
        callback(self)
        nextTarget = clock.boundary(after: max(t, timestamp), period: duration)
    }

    /// Now on the frame clock, in seconds.
    private func now() -> Double { clock?.now() ?? Double(FrameTimers.now()) / 1e9 }
}

extension Screen {
    /// A display link that calls `callback` once per frame of this screen, on the main actor, at the
    /// screen's refresh rate (60 Hz when the mode does not say).
    public func displayLink(_ callback: @escaping @MainActor (DisplayLink) -> Void) -> DisplayLink {
        let link = DisplayLink(screen: self, handler: callback)
        link.add(to: .main, forMode: .common)
        return link
    }
}
