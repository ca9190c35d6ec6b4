extension View {
    /// Converts a point in this view's coordinates to desktop coordinates (through every superview, the
    /// window, and the window's screen).
    func pointToDesktop(_ p: Point) -> Point {
        var x = p.x, y = p.y
        var v: View? = self
        while let cur = v {
            x += cur.frameStorage.origin.x - cur.boundsOrigin.x
            y += cur.frameStorage.origin.y - cur.boundsOrigin.y
            if let w = cur as? Window {
                x += w.screen.frame.origin.x
                y += w.screen.frame.origin.y
                break
            }
            v = cur.superviewStorage
        }
        return Point(x: x, y: y)
    }

    /// The inverse of `pointToDesktop`.
    func pointFromDesktop(_ p: Point) -> Point {
        let zero = pointToDesktop(.zero)
        return Point(x: p.x - zero.x, y: p.y - zero.y)
    }

    /// The origin of the coordinates that `nil` names: the screen of this view's window.
    private var screenOriginOnDesktop: Point {
        window?.screen.frame.origin ?? .zero
    }

    /// Converts a point from this view's coordinates to `view`'s; `nil` means the screen's coordinates.
    /// Views in windows on different screens convert through desktop coordinates.
    public func convert(_ point: Point, to view: View?) -> Point {
        let d = pointToDesktop(point)
        if let view { return view.pointFromDesktop(d) }
        let s = screenOriginOnDesktop
        return Point(x: d.x - s.x, y: d.y - s.y)
    }

    /// Converts a point from `view`'s coordinates to this view's; `nil` means the screen's coordinates.
    public func convert(_ point: Point, from view: View?) -> Point {
        if let view { return pointFromDesktop(view.pointToDesktop(point)) }
        let s = screenOriginOnDesktop
        return pointFromDesktop(Point(x: point.x + s.x, y: point.y + s.y))
    }

    /// Converts a rectangle from this view's coordinates to `view`'s (`nil`: the screen's).
    public func convert(_ rect: Rect, to view: View?) -> Rect {
        let r = rect.standardized
        return Rect(origin: convert(r.origin, to: view), size: r.size)
    }

    /// Converts a rectangle from `view`'s coordinates (`nil`: the screen's) to this view's.
    public func convert(_ rect: Rect, from view: View?) -> Rect {
        let r = rect.standardized
        return Rect(origin: convert(r.origin, from: view), size: r.size)
    }
}
