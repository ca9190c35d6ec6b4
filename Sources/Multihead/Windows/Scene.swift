/// What the model asks a backend to show: the visible windows, back to front; or, to a backend that
/// accepts partial scenes, only the windows that changed.
@MainActor
public struct Scene {
    /// The visible windows, back to front across all screens; in a partial scene only those whose pixels
    /// or place changed, the others (and the order) left as they were.
    public var windows: [PresentedWindow]
    /// Whether `windows` lists every visible window (the first scene, and any after a window was shown,
    /// hidden, restacked or released, or a screen changed); false only for a backend whose
    /// `acceptsPartialScenes` is true.
    public var isComplete = true
}

/// One visible window as the backend must show it.
@MainActor
public struct PresentedWindow {
    /// The model window (its views are what to draw).
    public let window: Window
    /// The name of the screen it is on.
    public let screenName: String
    /// Its rectangle in desktop (root window) coordinates.
    public let frameOnDesktop: Rect
    /// Its level.
    public let level: WindowLevel
    /// Whether anything in it changed since it was last presented.
    public let needsDisplay: Bool
    /// What changed, in the window's drawing coordinates (points, its top-left corner at 0, 0): the
    /// union of its damage since it was last presented; nil when nothing did. A backend that keeps the
    /// window's pixels draws and sends only this.
    public let damage: Rect?
    /// The brightness to apply in drawing (1 when the hardware dims, or nothing dims).
    public let softwareBrightness: Double
    /// Pixels per point of its screen: the views are drawn scaled by it.
    public let scale: Double
}
