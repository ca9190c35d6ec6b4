/// A space that points and rectangles convert between (UICoordinateSpace): views, and a screen's
/// `coordinateSpace` and `fixedCoordinateSpace`. Conversions go through desktop coordinates.
@MainActor
public protocol CoordinateSpace: AnyObject {
    /// The space's own rectangle.
    var bounds: Rect { get }
    /// Converts a point from this space to another.
    func convert(_ point: Point, to space: any CoordinateSpace) -> Point
    /// Converts a point from another space to this one.
    func convert(_ point: Point, from space: any CoordinateSpace) -> Point
    /// Converts a rectangle from this space to another.
    func convert(_ rect: Rect, to space: any CoordinateSpace) -> Rect
    /// Converts a rectangle from another space to this one.
    func convert(_ rect: Rect, from space: any CoordinateSpace) -> Rect
}

/// How a space maps to the desktop: what every `CoordinateSpace` of the package is built on.
@MainActor
protocol DesktopMapped: CoordinateSpace {
    /// A point of this space in desktop coordinates.
    func desktopPoint(_ p: Point) -> Point
    /// A desktop point in this space's coordinates.
    func localPoint(fromDesktop p: Point) -> Point
}

extension DesktopMapped {
    /// Converts a point from this space to another, through desktop coordinates.
    public func convert(_ point: Point, to space: any CoordinateSpace) -> Point {
        let d = desktopPoint(point)
        return (space as? any DesktopMapped)?.localPoint(fromDesktop: d) ?? d
    }

    /// Converts a point from another space to this one, through desktop coordinates.
    public func convert(_ point: Point, from space: any CoordinateSpace) -> Point {
        localPoint(fromDesktop: (space as? any DesktopMapped)?.desktopPoint(point) ?? point)
    }

    /// Converts a rectangle from this space to another (standardized; size kept).
    public func convert(_ rect: Rect, to space: any CoordinateSpace) -> Rect {
        let r = rect.standardized
        return Rect(origin: convert(r.origin, to: space), size: r.size)
    }

    /// Converts a rectangle from another space to this one (standardized; size kept).
    public func convert(_ rect: Rect, from space: any CoordinateSpace) -> Rect {
        let r = rect.standardized
        return Rect(origin: convert(r.origin, from: space), size: r.size)
    }
}

extension View: DesktopMapped {
    func desktopPoint(_ p: Point) -> Point { pointToDesktop(p) }
    func localPoint(fromDesktop p: Point) -> Point { pointFromDesktop(p) }
}

/// A screen's coordinates: its top-left corner is (0, 0). On X the picture is never turned under the
/// program, so a screen's `coordinateSpace` and `fixedCoordinateSpace` are the same.
@MainActor
final class ScreenCoordinateSpace: DesktopMapped {
    /// Held strongly, as UIKit's screen is its own coordinate space: a space kept past its screen's
    /// disconnect converts with the frame and scale the screen had last (the screen does not hold its
    /// spaces, so there is no cycle).
    let screen: Screen

    init(_ screen: Screen) { self.screen = screen }

    var bounds: Rect { screen.bounds }
    // Points of the screen are pixels of the desktop at the screen's scale.
    func desktopPoint(_ p: Point) -> Point {
        Point(x: screen.frame.minX + p.x * screen.scale, y: screen.frame.minY + p.y * screen.scale)
    }
    func localPoint(fromDesktop p: Point) -> Point {
        Point(x: (p.x - screen.frame.minX) / screen.scale, y: (p.y - screen.frame.minY) / screen.scale)
    }
}

/// Distances in from each edge (UIEdgeInsets).
public struct EdgeInsets: Hashable, Sendable {
    /// From the top edge.
    public var top: Double
    /// From the left edge.
    public var left: Double
    /// From the bottom edge.
    public var bottom: Double
    /// From the right edge.
    public var right: Double

    /// Makes insets.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No inset.
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}
