/// A rectangle of content (UIView): a frame in its superview, bounds of its own, a background colour,
/// and subviews drawn back to front.
@MainActor
open class View: Responder {
    // Every field hit testing reads drops the hit indexes that hold it when it changes (View+HitTest.swift).
    var frameStorage: Rect { didSet { hitEntryIsStale() } }
    var boundsOrigin: Point = .zero { didSet { hitEntryIsStale() } }
    var subviewStorage: [View] = [] { didSet { subviewsDidChange() } }
    /// Not retained, as UIKit's superview is not: the superview holds its subviews. Weak, so that a
    /// subview that outlives its superview (held elsewhere, or reached while the superview is being
    /// released on any thread) finds no superview rather than freed memory.
    weak var superviewStorage: View?
    /// The animator its running animations are in, while any runs (one of an application's, not retained:
    /// an application that goes ends them).
    weak var animatorStorage: Animator?
    weak var viewController: ViewController?
    var hiddenStorage = false { didSet { hitEntryIsStale() } }
    var needsLayoutStorage = true
    var subtreeNeedsLayout = false
    var recognizerStorage: [GestureRecognizer] = []
    /// Whether its own drawing paints every pixel of its bounds opaque (a GL view with a frame of its
    /// size): its background, and what is under it, need not be drawn.
    package var drawsOpaqueBounds = false
    /// The descendants laid out for `hitTest(_:with:)`, once it has been asked; nil again after a change.
    var hitIndexStorage: HitIndex?
    /// Whether an ancestor's hit index may hold this view (set when one is built, cleared when dropped).
    var isHitEntry = false

    /// Makes a view with a frame in its future superview's coordinates; a non-finite frame becomes `.zero`.
    public init(frame: Rect) {
        frameStorage = FiniteInput.accepts(frame.isFinite, "frame \(frame); using .zero") ? frame.standardized : .zero
        super.init()
    }

    /// The view's rectangle in its superview's coordinates (for a window: its screen's).
    ///
    /// Non-finite values are refused (logged, the old frame stays); a negative size is standardized.
    open var frame: Rect {
        get { frameStorage }
        set {
            guard FiniteInput.accepts(newValue.isFinite, "frame \(newValue)") else { return }
            let new = newValue.standardized
            guard new != frameStorage else { return }
            let old = frameStorage
            let animates = recordChange(.frame, from: .rect(old), to: .rect(new))
            // Where it was and where it is, in the superview: both must be drawn again.
            let before = extentInSuperview(at: old)
            frameStorage = new
            if new.size != old.size {
                boundsSizeDidChange()
                setNeedsLayout()
            }
            if let parent = superviewStorage {
                needsDisplay = true
                // A move that animates damages nothing now: its frames damage where it is drawn, from
                // where it rests.
                if !animates { parent.setNeedsDisplay(before.union(extentInSuperview(at: new))) }
            } else {
                setNeedsDisplay()
            }
        }
    }

    /// The view's own rectangle: its origin is what its top-left corner shows (usually 0, 0).
    open var bounds: Rect {
        get { Rect(origin: boundsOrigin, size: frameStorage.size) }
        set {
            guard FiniteInput.accepts(newValue.isFinite, "bounds \(newValue)") else { return }
            let new = newValue.standardized
            let c = center
            boundsOrigin = new.origin
            // Changing the bounds' size keeps the centre, as UIKit does.
            frame = Rect(x: c.x - new.width / 2, y: c.y - new.height / 2, width: new.width, height: new.height)
            setNeedsDisplay()
        }
    }

    /// The centre of the frame, in the superview's coordinates.
    open var center: Point {
        get { Point(x: frameStorage.midX, y: frameStorage.midY) }
        set {
            guard FiniteInput.accepts(newValue.isFinite, "center \(newValue)") else { return }
            frame = Rect(origin: Point(x: newValue.x - frameStorage.width / 2, y: newValue.y - frameStorage.height / 2),
                         size: frameStorage.size)
        }
    }

    /// The colour that fills the bounds before `draw`; `nil` is transparent.
    open var backgroundColor: Color? {
        didSet {
            guard backgroundColor != oldValue else { return }
            recordChange(.backgroundColor, from: .color(oldValue), to: .color(backgroundColor))
            setNeedsDisplay()
        }
    }

    /// Opacity 0…1 (clamped; non-finite values refused); at 0.01 or less the view takes no touches.
    open var alpha: Double {
        get { alphaStorage }
        set {
            guard FiniteInput.accepts(newValue.isFinite, "alpha \(newValue)") else { return }
            let old = alphaStorage
            alphaStorage = min(1, max(0, newValue))
            if alphaStorage != old {
                recordChange(.alpha, from: .number(old), to: .number(alphaStorage))
                setNeedsDisplayOfExtent()
            }
        }
    }
    var alphaStorage: Double = 1 { didSet { hitEntryIsStale() } }

    /// Whether the view (and its subviews) is not drawn and takes no touches.
    open var isHidden: Bool {
        get { hiddenStorage }
        set {
            guard newValue != hiddenStorage else { return }
            if newValue { setNeedsDisplayOfExtent() }
            hiddenStorage = newValue
            if !newValue { setNeedsDisplayOfExtent() }
        }
    }

    /// Whether subviews are cut off at the bounds.
    open var clipsToBounds = false {
        didSet {
            guard clipsToBounds != oldValue else { return }
            // What was drawn outside the bounds goes, or comes back: the unclipped extent either way.
            setNeedsDisplayOfExtent(clipped: false)
        }
    }

    /// Whether the view takes touches; when false, touches go to the views behind it.
    open var isUserInteractionEnabled: Bool {
        get { interactionStorage }
        set { interactionStorage = newValue }
    }
    var interactionStorage = true { didSet { hitEntryIsStale() } }

    /// A number to find the view by (`viewWithTag(_:)`); 0 by default.
    open var tag: Int = 0

    /// Whether the view asked to be drawn again.
    public internal(set) var needsDisplay = true

    /// Marks the whole view for drawing at the next flush (its bounds become damage of its window).
    open func setNeedsDisplay() { setNeedsDisplay(bounds) }

    /// Marks a part of the view (in its bounds' coordinates) for drawing at the next flush
    /// (UIView.setNeedsDisplay(_:)): only the damaged part of its window is drawn and sent again.
    open func setNeedsDisplay(_ rect: Rect) {
        needsDisplay = true
        guard rect.isFinite, let (w, damage) = rectInWindow(rect) else { return }
        w.addDamage(damage)
    }

    /// A rectangle of this view's bounds coordinates in its window's drawing coordinates (the window's
    /// top-left corner at 0, 0), and the window; nil outside any window.
    func rectInWindow(_ r: Rect) -> (Window, Rect)? {
        var x = r.minX, y = r.minY
        var cur: View = self
        while let s = cur.superviewStorage {
            x += cur.frameStorage.minX - cur.boundsOrigin.x
            y += cur.frameStorage.minY - cur.boundsOrigin.y
            cur = s
        }
        guard let w = cur as? Window else { return nil }
        return (w, Rect(x: x - w.boundsOrigin.x, y: y - w.boundsOrigin.y, width: r.width, height: r.height))
    }

    /// What the view and its subviews may draw over, in its bounds' coordinates: its bounds, and its
    /// subviews' where they are not clipped.
    /// `clipped` says whether to stop at the bounds (by default, as `clipsToBounds` says).
    func drawnExtent(clipped: Bool? = nil) -> Rect {
        var r = bounds
        guard !(clipped ?? clipsToBounds) else { return r }
        for s in subviewStorage where !s.hiddenStorage { r = r.union(s.extentInSuperview(at: s.frameStorage)) }
        return r
    }

    /// What the view draws over, in its superview's coordinates, were its frame `frame`.
    func extentInSuperview(at frame: Rect) -> Rect {
        let e = drawnExtent()
        return Rect(x: frame.minX + e.minX - boundsOrigin.x, y: frame.minY + e.minY - boundsOrigin.y, width: e.width, height: e.height)
    }

    /// Damages what the view and its subviews draw over (a change of alpha or visibility shows there).
    func setNeedsDisplayOfExtent(clipped: Bool? = nil) { setNeedsDisplay(drawnExtent(clipped: clipped)) }

    /// Clears the mark of this view and its subviews once their window was drawn.
    func clearNeedsDisplayInSubtree() {
        needsDisplay = false
        for v in subviews where v.needsDisplay || !v.subviews.isEmpty { v.clearNeedsDisplayInSubtree() }
    }

    /// Draws the view's own content (after its background, before its subviews), in its bounds'
    /// coordinates; the default draws nothing. `Label` draws its text.
    open func draw(_ rect: Rect, in context: any GraphicsContext) {}

    /// Lays out the subviews (UIView.layoutSubviews): override to set their frames from this view's bounds.
    /// Called by the application once per turn of the run loop, before drawing, for every view that needs
    /// layout (new in a window, resized, a subview added or removed, or `setNeedsLayout()`); the default
    /// does nothing.
    open func layoutSubviews() {}

    /// Called before the view moves to another superview (`nil`: it is being removed).
    open func willMove(toSuperview newSuperview: View?) {}
    /// Called after the view moved to another superview (or was removed from one).
    open func didMoveToSuperview() {}
    /// Called before the view (or an ancestor) moves into another window (`nil`: out of any), for every
    /// view of the moved subtree, parents first.
    open func willMove(toWindow newWindow: Window?) {}
    /// Called after the view (or an ancestor) moved into another window or out of one.
    open func didMoveToWindow() {}
    /// Called once when the traits changed (UITraitEnvironment): the view's window moved to a screen of
    /// another scale, or its screen's scale changed. `previous` is what `traitCollection` said before.
    open func traitCollectionDidChange(_ previous: TraitCollection?) {}
    /// Called after a subview was added.
    open func didAddSubview(_ subview: View) {}
    /// Called before a subview is removed.
    open func willRemoveSubview(_ subview: View) {}

    /// Called when the bounds' size changes; a window keeps its root view controller's view filling it.
    func boundsSizeDidChange() {}

    /// Whether a point in this view's coordinates is inside its bounds.
    open func point(inside point: Point, with event: Event? = nil) -> Bool {
        bounds.contains(point)
    }

    /// The deepest descendant (or this view) that is visible, has alpha ≥ 0.01, takes touches and contains
    /// the point (in this view's coordinates); later subviews are tried first. A point outside the bounds
    /// reaches nothing, even where a subview draws outside them.
    open func hitTest(_ point: Point, with event: Event? = nil) -> View? {
        guard point.isFinite else { return nil }
        if ObjectIdentifier(type(of: self)) == ObjectIdentifier(View.self) {
            // Nothing of a plain view's hit testing is overridden: its stored fields say it all (the bounds
            // compared as `Rect.contains` does, without building them).
            guard !hiddenStorage, alphaStorage >= 0.01, interactionStorage,
                  point.x >= boundsOrigin.x, point.y >= boundsOrigin.y,
                  point.x < boundsOrigin.x + frameStorage.width, point.y < boundsOrigin.y + frameStorage.height
            else { return nil }
        } else {
            // UIKit ignores views whose alpha is below 0.01; at 0.01 they still receive.
            guard !isHidden, alpha >= 0.01, isUserInteractionEnabled, self.point(inside: point, with: event) else { return nil }
        }
        return hitDescendants(point, with: event) ?? self
    }

    /// The next responder: the view controller whose view this is, else the superview.
    open override var next: Responder? { viewController ?? superview }
}

