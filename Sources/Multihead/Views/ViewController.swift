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

    /// The next responder: the superview of the view (for a root view controller, its window).
    open override var next: Responder? { loadedView?.superview }
}
