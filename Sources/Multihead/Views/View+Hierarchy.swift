extension View {
    /// The view that contains this one.
    public var superview: View? { superviewStorage }

    /// The subviews, back to front.
    public var subviews: [View] { subviewStorage }

    /// The window this view is in (a window's own `window` is itself).
    public var window: Window? {
        var v: View? = self
        while let cur = v {
            if let w = cur as? Window { return w }
            v = cur.superviewStorage
        }
        return nil
    }

    /// Adds a view in front of the other subviews; a view that has a superview moves.
    public func addSubview(_ view: View) {
        insertSubview(view, at: subviewStorage.count)
    }

    /// Inserts a view at an index of `subviews` (clamped to the valid range).
    public func insertSubview(_ view: View, at index: Int) {
        guard canAdopt(view) else { return }
        let oldParent = view.superviewStorage
        let moving = oldParent !== self
        let oldWindow = view.window, newWindow = window
        // UIKit's order: willMove(toSuperview:), willMove(toWindow:) down the subtree, the move,
        // didMoveToWindow() down the subtree, didMoveToSuperview(), then the parent's didAddSubview(_:).
        if moving { view.willMove(toSuperview: self) }
        if oldWindow !== newWindow { view.eachInSubtree { $0.willMove(toWindow: newWindow) } }
        if moving, let oldParent {
            oldParent.willRemoveSubview(view)
            let extent = view.extentInSuperview(at: view.frameStorage)
            oldParent.detach(view)
            oldParent.setNeedsLayout()
            // Where it was drawn, in the window it leaves.
            oldParent.setNeedsDisplay(extent)
        } else if let i = subviewStorage.firstIndex(where: { $0 === view }) {
            subviewStorage.remove(at: i)
        }
        let at = min(max(0, index), subviewStorage.count)
        subviewStorage.insert(view, at: at)
        view.superviewStorage = self
        if oldWindow !== newWindow {
            view.eachInSubtree { v in
                // A view needs layout when it first comes into a window.
                if newWindow != nil { v.needsLayoutStorage = true }
                v.didMoveToWindow()
            }
            view.markSubtreeNeedsLayout()
        }
        if moving {
            view.didMoveToSuperview()
            didAddSubview(view)
        }
        setNeedsLayout()
        // Where it draws now (over or under its new siblings): damage, not the whole window.
        view.needsDisplay = true
        setNeedsDisplay(view.extentInSuperview(at: view.frameStorage))
    }

    /// Inserts a view just in front of a sibling (at the front if `sibling` is not a subview).
    public func insertSubview(_ view: View, aboveSubview sibling: View) {
        guard canAdopt(view), view !== sibling else { return }
        let others = subviewStorage.filter { $0 !== view }
        insertSubview(view, at: others.firstIndex { $0 === sibling }.map { $0 + 1 } ?? others.count)
    }

    /// Inserts a view just behind a sibling (at the back if `sibling` is not a subview).
    public func insertSubview(_ view: View, belowSubview sibling: View) {
        guard canAdopt(view), view !== sibling else { return }
        let others = subviewStorage.filter { $0 !== view }
        insertSubview(view, at: others.firstIndex { $0 === sibling } ?? 0)
    }

    /// Moves a subview to the front.
    public func bringSubviewToFront(_ view: View) {
        guard view.superviewStorage === self else { return }
        insertSubview(view, at: subviewStorage.count)
    }

    /// Moves a subview to the back.
    public func sendSubviewToBack(_ view: View) {
        guard view.superviewStorage === self else { return }
        insertSubview(view, at: 0)
    }

    /// Takes the view out of its superview (and its window), with the same callbacks as UIKit.
    public func removeFromSuperview() {
        guard let parent = superviewStorage else { return }
        let oldWindow = window
        // Leaving its window ends what animates in it (completion false), as in UIKit.
        if oldWindow != nil { eachInSubtree { $0.animatorStorage?.cancel($0) } }
        willMove(toSuperview: nil)
        if oldWindow != nil { eachInSubtree { $0.willMove(toWindow: nil) } }
        parent.willRemoveSubview(self)
        let extent = extentInSuperview(at: frameStorage)
        parent.detach(self)
        if oldWindow != nil { eachInSubtree { $0.didMoveToWindow() } }
        didMoveToSuperview()
        parent.setNeedsLayout()
        // Where it was drawn: what shows there now is what was under it.
        parent.setNeedsDisplay(extent)
    }

    /// Calls `body` for this view and every descendant, parents first.
    func eachInSubtree(_ body: (View) -> Void) {
        body(self)
        for sub in subviewStorage { sub.eachInSubtree(body) }
    }

    /// Whether `view` is this view or one of its descendants.
    public func isDescendant(of view: View) -> Bool {
        var v: View? = self
        while let cur = v {
            if cur === view { return true }
            v = cur.superviewStorage
        }
        return false
    }

    fileprivate func detach(_ view: View) {
        if let i = subviewStorage.firstIndex(where: { $0 === view }) { subviewStorage.remove(at: i) }
        if let w = view.window, let r = w.firstResponder as? View, r.isDescendant(of: view) { w.firstResponder = nil }
        view.superviewStorage = nil
    }

    private func canAdopt(_ view: View) -> Bool {
        if isDescendant(of: view) {
            Application.logger.warning("refused to add a view to itself or to one of its own subviews")
            return false
        }
        if view is Window {
            Application.logger.warning("refused to add a window as a subview")
            return false
        }
        return true
    }

    /// The first view with this tag, depth first, the view itself first (UIView.viewWithTag).
    public func viewWithTag(_ tag: Int) -> View? {
        if self.tag == tag { return self }
        for sub in subviewStorage {
            if let found = sub.viewWithTag(tag) { return found }
        }
        return nil
    }
}
