/// An application's one frame clock (wlroots' per-output `frame` signal is the model): it owns the
/// timer, and each frame it runs the display links that are due, reads the backend's events, moves the
/// animations, and flushes once. An animation and a display link running together cost one wake-up and
/// one flush per refresh.
///
/// Every frame falls on one grid, `epoch + k / rate`: a link at the screen's rate and the animations meet
/// on the same boundaries, and a link at half the rate on every other one.
@MainActor
final class FrameClock {
    /// The application's running animations; they ask for frames through `animationsChanged()`.
    let animator = Animator()
    /// Where timers come from: the main loop's (`FrameTimers`) unless a test gives its own.
    package var timers: (any FrameTimerScheduler)?
    /// Seconds on the timers' clock; a test that fires the timer itself moves it.
    package var now: () -> Double = { Double(FrameTimers.now()) / 1e9 }

    private weak var application: Application?
    /// The links in the run loop, paused or not: retained, as the run loop retains a CADisplayLink until
    /// it is invalidated or removed (a link made and not kept still calls back).
    private var links: [DisplayLink] = []
    private var timer: (any FrameTimer)?
    /// The grid's origin, fixed at the first frame asked for.
    private var epoch: Double?
    /// The next frame the animations want, while they run.
    private var animationTarget: Double?
    /// What the timer is armed for: its next fire and the period it repeats at by itself (nanoseconds).
    /// A frame that wants the next boundary re-arms nothing: the timer stays on the main loop's list.
    private var armed: (next: UInt64, period: UInt64)?
    /// Whether the backend was told that frames read its events.
    package private(set) var isRunning = false

    init(application: Application) {
        self.application = application
        animator.onStart = { [weak self] in self?.animationsChanged() }
    }

    /// A clock that goes (with its application) leaves no timer behind.
    isolated deinit { timer?.cancel() }

    // MARK: Subscribing

    /// A link asks for frames (added to the run loop, resumed) or stops asking; the clock re-reads when.
    func linkChanged(_ link: DisplayLink) {
        var listed = false
        for l in links where l === link { listed = true }
        if !listed { links.append(link) }
        schedule()
    }

    /// A screen disconnected: its links are no longer valid, and leave the list now (the timer stops if
    /// nothing else wants frames).
    func screenDisconnected() { schedule() }

    /// Animations started: frames at the grid's rate from the next boundary on, until none runs.
    func animationsChanged() {
        if animator.isAnimating, animationTarget == nil {
            animationTarget = boundary(after: now(), period: 1 / animationRate)
        }
        schedule()
    }

    /// The next boundary of the grid strictly after `t` for a subscriber of `period` seconds.
    func boundary(after t: Double, period: Double) -> Double {
        let origin = epoch ?? t
        if epoch == nil { epoch = t }
        // A boundary less than a tenth of a frame away counts as this one: the timer's leeway.
        let k = ((t - origin) / period + 0.1).rounded(.down) + 1
        return origin + k * period
    }

    /// The animations' rate: the fastest screen of the application (60 Hz where none says).
    private var animationRate: Double {
        var fastest = 0
        for s in application?.screens ?? [] { fastest = max(fastest, s.maximumFramesPerSecond) }
        return Double(fastest > 0 ? fastest : 60)
    }

    // MARK: Frames

    /// Arms the timer for the earliest frame wanted, or stops it when none is.
    private func schedule() {
        // Links out of the run loop (removed, invalid, their screen gone) leave the list; `linkChanged`
        // brings one back. A paused link stays, asking for no frame.
        links.removeAll { !$0.isInRunLoop }
        var earliest = animationTarget
        for l in links { if let target = l.nextFrameTarget { earliest = min(earliest ?? target, target) } }
        guard let earliest else { return stop() }
        // The timer repeats at the shortest period wanted: the others' boundaries fall on its grid.
        var period = animationTarget != nil ? 1 / animationRate : 1
        for l in links where l.nextFrameTarget != nil { period = min(period, l.duration) }
        let deadline = UInt64(max(0, earliest) * 1e9), step = UInt64(period * 1e9)
        setRunning(true)
        // Within a microsecond of where it will fire anyway: nothing to change.
        if let a = armed, a.period == step, a.next.distance(to: deadline).magnitude < 1000 { return }
        if timer == nil {
            let fire: @MainActor () -> Void = { [weak self] in self?.fire() }
            timer = timers?.makeTimer(fire) ?? FrameTimers.make(fire)
        }
        timer?.schedule(deadline: deadline, repeating: step)
        armed = (deadline, step)
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        armed = nil
        epoch = nil
        setRunning(false)
    }

    private func setRunning(_ running: Bool) {
        guard running != isRunning else { return }
        isRunning = running
        application?.backend.frameClockChanged(isRunning: running)
    }

    /// The timer fired: a frame if anything is due (a link paused meanwhile may leave nothing).
    private func fire() {
        let t = now()
        // Where the repeating timer fires next: the first step of its grid after now (missed ones skipped).
        if let a = armed {
            let nowNs = UInt64(max(0, t) * 1e9)
            let late = nowNs >= a.next ? (nowNs - a.next) / a.period + 1 : 1
            armed = (a.next + late * a.period, a.period)
        }
        // Within a millisecond counts as due: a timer may fire that much early or late.
        let due = t + 0.001
        var dueLinks: [DisplayLink] = []
        for link in links { if let target = link.nextFrameTarget, target <= due { dueLinks.append(link) } }
        let animate = animationTarget.map { $0 <= due } ?? false
        if !dueLinks.isEmpty || animate { frame(links: dueLinks, animate: animate, at: t) }
        schedule()
    }

    /// A frame of the animations now (its events, their step, one flush), as the timer makes one: what a
    /// test calls to move a clock it controls.
    func frame() {
        frame(links: [], animate: true, at: now())
        schedule()
    }

    private func frame(links due: [DisplayLink], animate: Bool, at t: Double) {
        let app = application
        app?.beginFrame()
        // The links first, on time for their frame (reading the events takes system calls); then the
        // events, so that a touch that moves or ends an animation does so in this frame; then the
        // animations; their effects are drawn by the one flush at the end.
        for link in due { link.frame(at: t, on: self) }
        app?.handleFrameEvents()
        if animate {
            animator.tick()
            animationTarget = animator.isAnimating ? boundary(after: t, period: 1 / animationRate) : nil
        }
        app?.endFrame()
    }
}
