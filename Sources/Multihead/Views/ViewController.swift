/// Manages one view (UIViewController); a window's `rootViewController` supplies its content.
@MainActor
open class ViewController: Responder {
    private var loadedView: View?

    /// Makes a view controller; its view is loaded the first time `view` is read.
    public override init() { super.init() }

    /// The managed view, loaded on first use (`loadView`, then `viewDidLoad` once).
    public var view: View {
        get {
            if let v = loadedView { return v }
            loadView()
            let v = loadedView ?? View(frame: .zero)
            loadedView = v
            v.viewController = self
            viewDidLoad()
            return v
        }
        set {
            loadedView?.viewController = nil
            loadedView = newValue
            newValue.viewController = self
        }
    }

    /// Whether `view` has been loaded.
    public var isViewLoaded: Bool { loadedView != nil }

    /// Makes the view; override to build your own (set `view`). The default is a plain `View`.
    open func loadView() { view = View(frame: .zero) }

    /// Called once, after the view is loaded.
    open func viewDidLoad() {}
    /// Called once when its view's traits changed (its window moved to a screen of another scale, or its
    /// screen's scale changed), after the view's own call.
    open func traitCollectionDidChange(_ previous: TraitCollection?) {}

    /// Called before the view appears: its window is shown, or the controller is installed as the root of a
    /// visible window. Once per transition; `animated` is always false here.
    open func viewWillAppear(_ animated: Bool) {}
    /// Called after the view appeared.
    open func viewDidAppear(_ animated: Bool) {}
    /// Called before the view disappears: its window is hidden, or the controller stops being its root.
    open func viewWillDisappear(_ animated: Bool) {}
    /// Called after the view disappeared.
    open func viewDidDisappear(_ animated: Bool) {}

    /// Whether the view is shown (between `viewWillAppear` and `viewWillDisappear`).
    var isAppeared = false

    /// Runs `change` between the will- and did- callbacks of appearing (or disappearing); nothing is
    /// called when the view already is where it goes, so each transition is reported once.
    func transitionAppearance(visible: Bool, _ change: () -> Void) {
        guard visible != isAppeared else { return change() }
        isAppeared = visible
        if visible { viewWillAppear(false) } else { viewWillDisappear(false) }
        change()
        if visible { viewDidAppear(false) } else { viewDidDisappear(false) }
    }

    /// Called before the view's `layoutSubviews()`.
    open func viewWillLayoutSubviews() {}
    /// Called after the view's `layoutSubviews()`.
    open func viewDidLayoutSubviews() {}

    /// The next responder: the superview of the view (for a root view controller, its window).
    open override var next: Responder? { loadedView?.superview }
}
