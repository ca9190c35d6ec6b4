/// The traits of a view's environment (UITraitCollection), as far as Multihead has them: the scale of the
/// screen its window is on.
public struct TraitCollection: Sendable, Hashable {
    /// Pixels per point of the screen the view's window is on; 0 (unspecified) for a view outside a window.
    public var displayScale: Double

    /// Traits with a display scale.
    public init(displayScale: Double = 0) {
        self.displayScale = displayScale
    }
}

extension View {
    /// The view's traits: the scale of its window's screen (UIView.traitCollection). A view outside a
    /// window has an unspecified scale (0).
    public var traitCollection: TraitCollection { TraitCollection(displayScale: window?.traitScale ?? 0) }

    /// Pixels per point the view is drawn at: its window's screen's scale, 1 outside a window. Read-only
    /// here (UIKit lets a view draw at less than its screen's scale).
    public var contentScaleFactor: Double { window?.traitScale ?? 1 }

    /// Tells this view, its controller and every subview, depth first, that the traits changed from
    /// `previous`.
    func tellTraitsChanged(from previous: TraitCollection) {
        traitCollectionDidChange(previous)
        viewController?.traitCollectionDidChange(previous)
        for v in subviews { v.tellTraitsChanged(from: previous) }
    }
}

extension ViewController {
    /// The traits of its view (UIViewController.traitCollection).
    public var traitCollection: TraitCollection { isViewLoaded ? view.traitCollection : TraitCollection() }
}
