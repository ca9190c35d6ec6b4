extension View {
    /// Marks the view for `layoutSubviews()` in the next turn of the run loop (UIView.setNeedsLayout).
    public func setNeedsLayout() {
        needsLayoutStorage = true
        markSubtreeNeedsLayout()
    }

    /// Lays out now, for this view's subtree: every view in it that needs layout gets `layoutSubviews()`,
    /// parents before children (UIView.layoutIfNeeded).
    public func layoutIfNeeded() {
        layoutSubtree()
    }

    /// Whether `layoutSubviews()` is due.
    public var needsLayout: Bool { needsLayoutStorage }

    /// Tells the ancestors that something below them needs layout, and the application to lay out soon.
    func markSubtreeNeedsLayout() {
        var v: View? = self
        while let cur = v, !cur.subtreeNeedsLayout {
            cur.subtreeNeedsLayout = true
            v = cur.superviewStorage
        }
        if let w = window { w.application.windowNeedsFlush(w) }
    }

    /// Lays out the views below this one that need it, parents first. A parent's `layoutSubviews()` that
    /// resizes a child marks the child, which is laid out in the same pass.
    func layoutSubtree() {
        guard needsLayoutStorage || subtreeNeedsLayout else { return }
        subtreeNeedsLayout = false
        if needsLayoutStorage {
            needsLayoutStorage = false
            viewController?.viewWillLayoutSubviews()
            layoutSubviews()
            viewController?.viewDidLayoutSubviews()
        }
        for sub in subviewStorage { sub.layoutSubtree() }
        // A child's layout that asked for its parent's again: done in the next pass, not forever now.
        subtreeNeedsLayout = subviewStorage.contains { $0.needsLayoutStorage || $0.subtreeNeedsLayout }
    }
}
