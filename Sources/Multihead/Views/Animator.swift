import Dispatch

/// UIKit's animation model: inside `View.animate`'s block the properties take their final values at
/// once (reading them, and hit testing, see those); what is drawn goes from the value drawn before to
/// the final one over the duration, one frame per display refresh, then the completion runs with true.
/// A new animation of the same property, the view's removal from its window, or its release, ends the old
/// one with false. One per application, owned by its frame clock, which asks it for a step each frame;
/// a view's animations live in the animator of the window it was in when they started (a view in no
/// window: `Application.shared`'s).
@MainActor
final class Animator {
    enum Property: Hashable { case frame, alpha, backgroundColor }

    enum Value {
        case rect(Rect), number(Double), color(Color?)

        func interpolated(to end: Value, _ p: Double) -> Value {
            func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * p }
            switch (self, end) {
            case (.rect(let a), .rect(let b)):
                return .rect(Rect(x: mix(a.minX, b.minX), y: mix(a.minY, b.minY), width: mix(a.width, b.width), height: mix(a.height, b.height)))
            case (.number(let a), .number(let b)): return .number(mix(a, b))
            case (.color(let a), .color(let b)):
                // nil is clear: the other colour at no opacity.
                let ca = a ?? b?.withAlphaComponent(0) ?? .clear, cb = b ?? a?.withAlphaComponent(0) ?? .clear
                return .color(Color(red: mix(ca.red, cb.red), green: mix(ca.green, cb.green), blue: mix(ca.blue, cb.blue),
                                    alpha: mix(ca.alpha, cb.alpha)))
            default: return end
            }
        }
    }

    /// One `animate` call: its timing and its completion, run once all its properties ended.
    final class Group {
        let duration: Double, delay: Double, options: AnimationOptions
        let completion: ((Bool) -> Void)?
        /// When it started: the clock of the animator its first change went to, at that change.
        var start: Double?
        var running = 0
        var finished = true

        init(duration: Double, delay: Double, options: AnimationOptions, completion: ((Bool) -> Void)?) {
            self.duration = duration
            self.delay = delay
            self.options = options
            self.completion = completion
        }

        /// The eased progress at `now`, and whether the group is done.
        func progress(at now: Double) -> (Double, done: Bool) {
            let t = now - (start ?? now) - delay
            guard t > 0 else { return (0, false) }
            guard duration > 0 else { return (1, true) }
            var cycle = t / duration
            let repeats = options.contains(.repeat)
            if !repeats && cycle >= (options.contains(.autoreverse) ? 2 : 1) {
                // UIKit leaves an autoreversed, non-repeating animation at its final (model) value.
                return (1, true)
            }
            if options.contains(.autoreverse) {
                cycle = cycle.truncatingRemainder(dividingBy: 2)
                if cycle > 1 { cycle = 2 - cycle }
            } else if repeats {
                cycle = cycle.truncatingRemainder(dividingBy: 1)
            }
            return (options.eased(min(1, cycle)), false)
        }
    }

    /// One property of one view animating. A class: the frame's scans copy each one.
    final class Running {
        /// Not retained: a detached view animating does not live on for it. Once the view is gone the
        /// next frame ends the animation.
        weak var view: View?
        let viewID: ObjectIdentifier
        let property: Property
        let from: Value, to: Value
        let group: Group
        /// A frame animation's rectangle drawn last, in its window's coordinates: damaged when it moves on.
        var drawn: Rect?

        init(view: View, property: Property, from: Value, to: Value, group: Group, drawn: Rect?) {
            self.view = view
            viewID = ObjectIdentifier(view)
            self.property = property
            self.from = from
            self.to = to
            self.group = group
            self.drawn = drawn
        }
    }

    private var running: [Running] = []
    /// Called when animations start: the frame clock then asks for frames.
    var onStart: () -> Void = {}
    /// The clock, in seconds; tests replace it.
    var now: () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 } {
        didSet { frameDrawn() }
    }
    /// The time of the frame being drawn, from its tick (or the flush that drew it) to the end of that
    /// flush: what is damaged and what is drawn are the same positions.
    private var frameTime: Double?
    /// Whether this frame's moving views have been damaged (`prepareFrame`).
    private var prepared = false

    /// An animator that goes (with its application) ends what still runs: completion false, as for a
    /// view taken out of its window.
    isolated deinit {
        let ended = running
        running = []
        end(ended, finished: false)
    }

    /// A property of `view` changed from `old` to `new`: inside an animation block it animates from what
    /// is drawn now; an animation of it already running ends (completion false). Returns whether the
    /// change animates: a move that does damages nothing now, as its frames damage where it is drawn.
    @discardableResult
    func record(_ view: View, _ property: Property, from old: Value, to new: Value, in group: Group?) -> Bool {
        let current = presentation(of: view, property) ?? old
        // Where a moving view was drawn stays damage for the animation that takes over.
        var drawn = last(of: view, property)?.drawn
        cancel(view, property)
        guard let group else {
            if let drawn { view.window?.addDamage(drawn) }
            return false
        }
        // A move from rest: it is drawn where it rests, which its first frame damages. Not the path to the
        // model's new place: nothing is drawn there before the move ends (a move across a full-HD window
        // redrew the whole strip at its start).
        if drawn == nil, property == .frame, case .rect(let from) = current, let s = view.superview {
            drawn = s.rectInWindow(view.extentInSuperview(at: from))?.1
        }
        if group.start == nil { group.start = now() }
        running.append(Running(view: view, property: property, from: current, to: new, group: group, drawn: drawn))
        view.animatorStorage = self
        // A move that starts between a tick and its flush must be placed by that flush.
        prepared = false
        group.running += 1
        if running.count == 1 { onStart() }
        return true
    }

    /// What is drawn for a property now, while it animates.
    func presentation(of view: View, _ property: Property) -> Value? {
        guard !running.isEmpty, let r = last(of: view, property) else { return nil }
        return r.from.interpolated(to: r.to, r.group.progress(at: frameTime ?? now()).0)
    }

    /// The animation of a view's property that runs now (the last one started). The frame's scans are
    /// loops, not closures: a main-actor closure given to the standard library checks the executor at
    /// every call.
    private func last(of view: View, _ property: Property) -> Running? {
        let id = ObjectIdentifier(view)
        for r in running.reversed() where r.viewID == id && r.property == property { return r }
        return nil
    }

    /// Whether anything runs.
    var isAnimating: Bool { !running.isEmpty }

    /// Ends the animations of `view` (all its properties, or one), completion false.
    func cancel(_ view: View, _ property: Property? = nil) {
        let id = ObjectIdentifier(view)
        let (gone, kept) = split { $0.viewID == id && (property == nil || $0.property == property) }
        running = kept
        end(gone, finished: false)
        // A move cut short leaves no trace where it was drawn (record() hands it to the move that follows).
        if property == nil, let w = view.window { for r in gone { if let d = r.drawn { w.addDamage(d) } } }
    }

    /// One frame's step (its clock handles the events before and flushes after): redraws what animates,
    /// and ends what is done (completion true).
    func tick() {
        let t = now()
        frameTime = t
        prepared = false
        // Most frames end nothing: no split then.
        var done: [Running] = []
        var anyDone = false
        for r in running where r.view == nil || r.group.progress(at: t).done {
            anyDone = true
            break
        }
        if anyDone { (done, running) = split { $0.view == nil || $0.group.progress(at: t).done } }
        for r in running where r.property != .frame { r.view?.setNeedsDisplayOfExtent() }
        for r in done where r.property != .frame { r.view?.setNeedsDisplayOfExtent() }
        // A move that ended: where it was drawn last, and where it rests.
        for r in done where r.property == .frame {
            guard let v = r.view else { continue }
            if let drawn = r.drawn { v.window?.addDamage(drawn) }
            v.superview?.setNeedsDisplay(v.extentInSuperview(at: v.frameStorage))
        }
        prepareFrame()
        // A view released while it animated did not see its animation to the end: false, as for a view
        // taken out of its window.
        var released: [Running] = [], completed: [Running] = []
        for r in done { if r.view == nil { released.append(r) } else { completed.append(r) } }
        end(released, finished: false)
        end(completed, finished: true)
    }

    /// Before a frame is drawn (its tick, or a flush for another change while a move runs): fixes the
    /// frame's time and damages, for each moving view, where it was drawn last and where it is drawn now,
    /// not its whole window. A view inside another that moves, or a window, damages its window.
    func prepareFrame() {
        // Once a frame: the flush after a tick finds the frame prepared.
        guard !running.isEmpty, !prepared else { return }
        prepared = true
        if frameTime == nil { frameTime = now() }
        // Few animations run at once: plain scans, no set or array made per frame.
        func moves(_ v: View) -> Bool {
            let id = ObjectIdentifier(v)
            for r in running where r.property == .frame && r.viewID == id { return true }
            return false
        }
        for r in running where r.property == .frame {
            guard let v = r.view, let w = v.window else { continue }
            var ancestor = v.superview
            while let a = ancestor, !moves(a) { ancestor = a.superview }
            guard ancestor == nil, let s = v.superview, let (_, now) = s.rectInWindow(v.extentInSuperview(at: v.presentationFrame))
            else {
                w.setNeedsDisplay()
                r.drawn = nil
                continue
            }
            // Not moved since drawn (a delay, a clock that stood still): nothing to draw again.
            if let drawn = r.drawn {
                if drawn == now { continue }
                w.addDamage(drawn)
            }
            w.addDamage(now)
            r.drawn = now
        }
    }

    /// After a frame was drawn: the presentation follows the clock again.
    func frameDrawn() {
        frameTime = nil
        prepared = false
    }

    private func split(_ isGone: (Running) -> Bool) -> (gone: [Running], kept: [Running]) {
        var gone: [Running] = [], kept: [Running] = []
        for r in running { if isGone(r) { gone.append(r) } else { kept.append(r) } }
        return (gone, kept)
    }

    private func end(_ ended: [Running], finished: Bool) {
        // A view with nothing left running here no longer points at this animator.
        for r in ended {
            guard let v = r.view, v.animatorStorage === self else { continue }
            var more = false
            for other in running where other.viewID == r.viewID { more = true }
            if !more { v.animatorStorage = nil }
        }
        for r in ended {
            let g = r.group
            if !finished { g.finished = false }
            g.running -= 1
            if g.running == 0 { g.completion?(g.finished) }
        }
    }
}

/// The animation blocks being run (CATransaction's stack): a change of an animatable property records
/// itself in the innermost one, unless `performWithoutAnimation` is running.
@MainActor
enum AnimationTransaction {
    /// The groups of the blocks being run, innermost last.
    private(set) static var groups: [Animator.Group] = []
    /// How many `performWithoutAnimation` blocks are being run.
    private static var suppressed = 0

    /// The group a change made now belongs to, if it animates.
    static var current: Animator.Group? { suppressed == 0 ? groups.last : nil }

    /// Runs `animations` with every change of an animatable property recorded in a new group.
    static func animate(duration: Double, delay: Double, options: AnimationOptions, animations: () -> Void,
                        completion: ((Bool) -> Void)?) {
        let group = Animator.Group(duration: max(0, duration.isFinite ? duration : 0), delay: max(0, delay.isFinite ? delay : 0),
                                   options: options, completion: completion)
        groups.append(group)
        animations()
        groups.removeLast()
        // Nothing to animate: the completion still runs, in the next turn, as in UIKit.
        if group.running == 0, let completion { DispatchQueue.main.async { completion(true) } }
    }

    /// Runs `body` with animations off.
    static func withoutAnimation(_ body: () -> Void) {
        suppressed += 1
        body()
        suppressed -= 1
    }
}

extension View {
    /// Animates changes to `frame`, `bounds`, `center`, `alpha` and `backgroundColor` made in `animations`
    /// (UIView.animate): they take their final values at once, and are drawn moving to them over
    /// `duration` seconds after `delay`; `completion` gets true when it ran to the end, false when another
    /// animation of a property or the view's removal ended it.
    public static func animate(withDuration duration: Double, delay: Double = 0, options: AnimationOptions = [],
                               animations: () -> Void, completion: ((Bool) -> Void)? = nil) {
        AnimationTransaction.animate(duration: duration, delay: delay, options: options, animations: animations, completion: completion)
    }

    /// Animates with the default options and no delay.
    public static func animate(withDuration duration: Double, animations: () -> Void) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: nil)
    }

    /// Makes the changes in `actions` without animating them, even inside an animation block.
    public static func performWithoutAnimation(_ actions: () -> Void) {
        AnimationTransaction.withoutAnimation(actions)
    }

    /// A change of an animatable property: recorded by the animator its animations run in, or, inside an
    /// animation block, by its application's (see `Animator.record`). Outside any block with nothing
    /// running for the view, a plain change (the common case, kept cheap). Returns whether it animates.
    @discardableResult
    func recordChange(_ property: Animator.Property, from old: Animator.Value, to new: Animator.Value) -> Bool {
        if AnimationTransaction.groups.isEmpty, animatorStorage == nil { return false }
        let animator = animatorStorage ?? (window?.application ?? Application.shared).frameClock.animator
        return animator.record(self, property, from: old, to: new, in: AnimationTransaction.current)
    }

    /// The frame drawn now: the animated one while an animation runs.
    var presentationFrame: Rect {
        if case .rect(let r)? = animatorStorage?.presentation(of: self, .frame) { return r }
        return frameStorage
    }

    /// The opacity drawn now.
    var presentationAlpha: Double {
        if case .number(let a)? = animatorStorage?.presentation(of: self, .alpha) { return a }
        return alpha
    }

    /// The background colour drawn now.
    package var presentationBackgroundColor: Color? {
        if case .color(let c)? = animatorStorage?.presentation(of: self, .backgroundColor) { return c }
        return backgroundColor
    }
}
