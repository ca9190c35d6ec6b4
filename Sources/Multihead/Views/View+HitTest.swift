/// A view's descendants laid out for hit testing, built when first asked and dropped by any change that
/// could alter an answer (`View.hitEntryIsStale()`, `View.subviewsDidChange()`).
///
/// Each view's subviews are one contiguous run of entries, back to front as `subviews` lists them, and an
/// entry names the run of its own subviews: the walk goes down without recursion, over plain values,
/// without retaining a view per step (a view's reference count is in a side table once a subview points at
/// it weakly, so each retain and release took the slow path; they were most of the walk's cost).
@MainActor
final class HitIndex {
    struct Entry {
        /// The frame's and the bounds' origins, and the bounds' far edges (origin plus size): a point converts
        /// and compares with the same arithmetic as `hitTest(_:with:)`'s, to the same bits.
        var x, y, boundsX, boundsY, boundsMaxX, boundsMaxY: Double
        /// This entry's subviews: `entries[first..<end]` (empty for a leaf and for an overridable view).
        var first: Int32 = 0, end: Int32 = 0
        /// Not exactly `View`: its `hitTest(_:with:)` answers for it and its subtree, so overrides are honoured.
        var overridable: Bool
    }

    let entries: [Entry]
    /// The view of each entry, at the same index.
    let views: [View]
    /// The root's subviews are `entries[0..<rootEnd]`.
    let rootEnd: Int

    /// Lays out `root`'s descendants breadth first, so that each view's subviews are adjacent. A plain view
    /// that takes no touches (hidden, alpha below 0.01, interaction off) gets no entry and neither does its
    /// subtree, but it is marked like the rest: a change to it must drop this index.
    init(_ root: View) {
        var entries: [Entry] = [], views: [View] = []
        let plain = ObjectIdentifier(View.self)
        func appendSubviews(of view: View) -> (Int32, Int32) {
            let first = Int32(entries.count)
            for sub in view.subviewStorage {
                sub.isHitEntry = true
                let overridable = ObjectIdentifier(type(of: sub)) != plain
                guard overridable || (!sub.hiddenStorage && sub.alphaStorage >= 0.01 && sub.interactionStorage) else { continue }
                let f = sub.frameStorage, b = sub.boundsOrigin
                entries.append(Entry(x: f.origin.x, y: f.origin.y, boundsX: b.x, boundsY: b.y,
                                     boundsMaxX: b.x + f.width, boundsMaxY: b.y + f.height, overridable: overridable))
                views.append(sub)
            }
            return (first, Int32(entries.count))
        }
        rootEnd = Int(appendSubviews(of: root).1)
        var k = 0
        while k < entries.count {
            if !entries[k].overridable { (entries[k].first, entries[k].end) = appendSubviews(of: views[k]) }
            k += 1
        }
        self.entries = entries
        self.views = views
    }

    /// Where a walk is: the point in the coordinates of the deepest view found so far (`found`, -1 for
    /// the root), and the entries left to try, `lo..<i`, tried from the end.
    struct Walk {
        var point: Point
        var found = -1
        var lo = 0, i: Int
    }

    /// Walks the plain entries until the answer is known (nil; `w.found` is it) or an overridable view must
    /// be asked: its index, and the point in its coordinates. Calls nothing, so that the caller need not
    /// hold the index for it (the retain and release of the index were a third of a small tree's walk).
    func walk(_ w: inout Walk) -> (Int, Point)? {
        while w.i > w.lo {
            w.i -= 1
            let e = entries[w.i]
            let q = Point(x: w.point.x - e.x + e.boundsX, y: w.point.y - e.y + e.boundsY)
            if e.overridable { return (w.i, q) }
            guard q.x >= e.boundsX, q.y >= e.boundsY, q.x < e.boundsMaxX, q.y < e.boundsMaxY else { continue }
            // It contains the point: the answer is it or one of its subviews, so the walk never comes back up.
            w.found = w.i
            w.point = q
            w.lo = Int(e.first)
            w.i = Int(e.end)
        }
        return nil
    }

    /// Goes on with a walk that reached an overridable view: each such view's answer is final if it has
    /// one, as a subview's `hitTest` is for its superview's. An override that changes the tree drops the
    /// index, but this walk ends on the one it began with (it holds its views): the next hit test sees the
    /// change.
    func finish(_ w: inout Walk, asking first: (Int, Point), with event: Event?) -> View? {
        var ask: (Int, Point)? = first
        while let (k, q) = ask {
            if let hit = views[k].hitTest(q, with: event) { return hit }
            ask = walk(&w)
        }
        return w.found < 0 ? nil : views[w.found]
    }
}

extension View {
    /// The deepest descendant that takes the point (in this view's coordinates), through the hit index.
    func hitDescendants(_ point: Point, with event: Event?) -> View? {
        if let index = hitIndexStorage {
            var w = HitIndex.Walk(point: point, i: index.rootEnd)
            guard let ask = index.walk(&w) else { return w.found < 0 ? nil : index.views[w.found] }
            return index.finish(&w, asking: ask, with: event)
        }
        // A leaf keeps no index: most views are leaves, and overridable ones are asked one by one.
        guard !subviewStorage.isEmpty else { return nil }
        hitIndexStorage = HitIndex(self)
        return hitDescendants(point, with: event)
    }

    /// Drops every hit index that may hold this view's entry: a change to its frame, bounds or touchability.
    /// Such an index is an ancestor's, and every view between this one and that ancestor has an entry in it
    /// too (so is marked): the walk goes up while views are marked.
    func hitEntryIsStale() {
        var v = self
        while v.isHitEntry, let up = v.superviewStorage {
            v.isHitEntry = false
            up.hitIndexStorage = nil
            v = up
        }
    }

    /// Drops this view's hit index and those of the ancestors whose index reaches its subviews.
    func subviewsDidChange() {
        hitIndexStorage = nil
        hitEntryIsStale()
    }
}
