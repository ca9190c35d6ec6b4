extension View {
    /// Converts a point in this view's coordinates to desktop coordinates (through every superview, the
    /// window, and the window's screen: points become pixels there, at the screen's scale).
    func pointToDesktop(_ p: Point) -> Point {
        var x = p.x, y = p.y
        var v: View? = self
        while let cur = v {
            x += cur.frameStorage.origin.x - cur.boundsOrigin.x
            y += cur.frameStorage.origin.y - cur.boundsOrigin.y
            if let w = cur as? Window {
                let s = w.screen.scale
                return Point(x: w.screen.frame.origin.x + x * s, y: w.screen.frame.origin.y + y * s)
            }
            v = cur.superviewStorage
        }
        return Point(x: x, y: y)
    }

    /// The inverse of `pointToDesktop`.
    func pointFromDesktop(_ p: Point) -> Point {
        let zero = pointToDesktop(.zero)
        let s = window?.screen.scale ?? 1
        return Point(x: (p.x - zero.x) / s, y: (p.y - zero.y) / s)
    }

    /// Where the coordinates that `nil` names start, on the desktop: for a window, its screen's; for a
    /// view, its window's (UIKit's rule); a view in no window has its root's.
    private var nilOriginOnDesktop: Point {
        var root: View = self
        while let up = root.superviewStorage { root = up }
        return root.pointToDesktop(.zero)
    }

    /// Converts a point from this view's coordinates to `view`'s; `nil` means the window's coordinates (for
    /// a window: its screen's). Views in windows on different screens convert through desktop coordinates.
    public func convert(_ point: Point, to view: View?) -> Point {
        let d = pointToDesktop(point)
        if let view { return view.pointFromDesktop(d) }
        if let w = self as? Window { return ScreenCoordinateSpace(w.screen).localPoint(fromDesktop: d) }
        let o = nilOriginOnDesktop, s = window?.screen.scale ?? 1
        return Point(x: (d.x - o.x) / s, y: (d.y - o.y) / s)
    }

    /// Converts a point from `view`'s coordinates to this view's; `nil` means the window's coordinates (for
    /// a window: its screen's).
    public func convert(_ point: Point, from view: View?) -> Point {
        if let view { return pointFromDesktop(view.pointToDesktop(point)) }
        if let w = self as? Window { return pointFromDesktop(ScreenCoordinateSpace(w.screen).desktopPoint(point)) }
        let o = nilOriginOnDesktop, s = window?.screen.scale ?? 1
        return pointFromDesktop(Point(x: o.x + point.x * s, y: o.y + point.y * s))
    }

    /// Converts a rectangle from this view's coordinates to `view`'s (`nil`: the window's; for a window,
    /// its screen's).
    public func convert(_ rect: Rect, to view: View?) -> Rect {
        let r = rect.standardized
        return Rect(origin: convert(r.origin, to: view), size: r.size)
    }

    /// Converts a rectangle from `view`'s coordinates (`nil`: the window's; for a window, its screen's) to
    /// this view's.
    public func convert(_ rect: Rect, from view: View?) -> Rect {
        let r = rect.standardized
        return Rect(origin: convert(r.origin, from: view), size: r.size)
    }
}
