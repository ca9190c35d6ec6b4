/// Where views draw: the drawing backend implements it (cairo on X11). Coordinates are the current
/// view's; the renderer moves the origin from view to view.
@MainActor
public protocol GraphicsContext: AnyObject {
    /// Saves the origin, clip and layer state.
    func saveState()
    /// Restores what `saveState` saved.
    func restoreState()
    /// Moves the origin.
    func translate(by offset: Point)
    /// Intersects the clip with a rectangle.
    func clip(to rect: Rect)
    /// Starts drawing into a layer that is composited with `alpha` when it ends.
    func beginTransparencyLayer(alpha: Double)
    /// Composites the layer begun last.
    func endTransparencyLayer()
    /// Fills a rectangle with a colour (blended by its alpha).
    func fill(_ rect: Rect, with color: Color)
    /// Fills the pixels whose centres lie in `rect`, with no blended edge: how a view's background is
    /// drawn. The default fills `rect`.
    func fillBackground(_ rect: Rect, with color: Color)
    /// Whether `fillBackground(rect, …)` would paint everything the clip leaves: a view under an opaque
    /// one that does is not drawn at all. The default says false.
    func backgroundCoversClip(_ rect: Rect) -> Bool
    /// Draws one line of text with its top-left corner at `point`.
    func drawText(_ text: String, at point: Point, fontSize: Double, color: Color)
    /// Draws one line of text in a font with its top-left corner at `point` (the top of the line box:
    /// the baseline is the font's ascent below it). The default draws it at the font's size, regular.
    func drawText(_ text: String, at point: Point, font: Font, color: Color)
    /// How this context's text is measured, so that what is drawn is laid out as it is drawn; nil (the
    /// default): the view's own measurer (its window's backend's).
    var textMeasurer: (any TextMeasuring)? { get }
}

extension GraphicsContext {
    /// None of its own: the view's measurer.
    public var textMeasurer: (any TextMeasuring)? { nil }

    /// Fills `rect`, edges and all.
    public func fillBackground(_ rect: Rect, with color: Color) {
        fill(rect, with: color)
    }

    /// False: the context cannot tell, so everything is drawn.
    public func backgroundCoversClip(_ rect: Rect) -> Bool { false }

    /// Draws at the font's size, ignoring its weight.
    public func drawText(_ text: String, at point: Point, font: Font, color: Color) {
        drawText(text, at: point, fontSize: font.pointSize, color: color)
    }
}

/// Draws a window's views into a context: back to front, each view's background, then its `draw`, then
/// its subviews, with frame offsets, bounds origins, alpha and `clipsToBounds`. The X11 presenter and
/// the offscreen renderer both call it, so what X shows and what the model renders are the same pixels.
@MainActor
public enum ViewRenderer {
    /// Draws a window's content in its own coordinates (the origin is the window's top-left corner),
    /// then dims it to `brightness` (software dimming) when that is below 1.
    public static func draw(_ window: Window, in ctx: any GraphicsContext, brightness: Double = 1) {
        let size = window.bounds.size
        ctx.saveState()
        ctx.clip(to: Rect(origin: .zero, size: size))
        ctx.translate(by: Point(x: -window.bounds.origin.x, y: -window.bounds.origin.y))
        drawOwnContent(of: window, in: ctx, bounds: window.bounds)
        ctx.restoreState()
        if brightness < 1 {
            ctx.fill(Rect(origin: .zero, size: size), with: Color(white: 0, alpha: 1 - max(0, brightness)))
        }
    }

    /// The one colour a window's pixels all have, when its drawing is only an opaque background: a plain
    /// `Window` (no `draw` of its own) whose subviews draw nothing. A backend may then let the server fill
    /// it rather than draw and send its pixels. Nil for anything else.
    package static func solidColor(of window: Window) -> Color? {
        guard isPlain(window), let bg = window.presentationBackgroundColor, bg.alpha >= 1 else { return nil }
        for sub in window.subviews where !sub.isHidden && sub.presentationAlpha > 0 { return nil }
        return bg
    }

    /// Whether the view is exactly a `View` or a `Window`, whose `draw(_:in:)` draws nothing.
    private static func isPlain(_ view: View) -> Bool {
        let t = ObjectIdentifier(type(of: view))
        return t == ObjectIdentifier(View.self) || t == ObjectIdentifier(Window.self)
    }

    /// Draws a view (not a window) in its superview's coordinates.
    public static func draw(_ view: View, in ctx: any GraphicsContext) {
        // What is drawn is the presentation: the animated values while an animation runs.
        let alpha = view.presentationAlpha
        guard !view.isHidden, alpha > 0 else { return }
        let frame = view.presentationFrame
        let bounds = Rect(origin: view.bounds.origin, size: frame.size)
        ctx.saveState()
        ctx.translate(by: frame.origin)
        let layered = alpha < 1
        if layered { ctx.beginTransparencyLayer(alpha: alpha) }
        ctx.translate(by: Point(x: -bounds.origin.x, y: -bounds.origin.y))
        if view.clipsToBounds { ctx.clip(to: bounds) }
        drawOwnContent(of: view, in: ctx, bounds: bounds)
        if layered { ctx.endTransparencyLayer() }
        ctx.restoreState()
    }

    private static func drawOwnContent(of view: View, in ctx: any GraphicsContext, bounds: Rect) {
        let subviews = view.subviews
        // What an opaque subview covers whole is painted over: when it covers all that is drawn (a label
        // that changed, in its window), the view's background, its drawing and the subviews under it are
        // not drawn at all.
        // A loop: a main-actor closure given to the standard library checks the executor at each call.
        var top: Int?
        for i in subviews.indices.reversed() where paintsOverClip(subviews[i], in: ctx) {
            top = i
            break
        }
        if top == nil {
            // UIKit's layers do not antialias their edges (`CALayer.allowsEdgeAntialiasing` is false unless
            // set): a view between pixels has hard edges, and two views sharing an edge leave no seam.
            // A view whose drawing covers its bounds opaque paints over its background anyway.
            if !view.drawsOpaqueBounds, let bg = view.presentationBackgroundColor, bg.alpha > 0 { ctx.fillBackground(bounds, with: bg) }
            // A view's own drawing stays in its bounds, as a layer's contents do in UIKit; a plain view or
            // window draws nothing of its own, and needs no clip for it.
            if !isPlain(view) {
                ctx.saveState()
                ctx.clip(to: bounds)
                view.draw(bounds, in: ctx)
                ctx.restoreState()
            }
        }
        for sub in subviews[(top ?? 0)...] { draw(sub, in: ctx) }
    }

    /// Whether `sub`'s opaque background, or its own opaque drawing, paints every pixel left to draw in its
    /// superview's coordinates.
    private static func paintsOverClip(_ sub: View, in ctx: any GraphicsContext) -> Bool {
        guard !sub.isHidden, sub.presentationAlpha >= 1 else { return false }
        guard sub.drawsOpaqueBounds || (sub.presentationBackgroundColor?.alpha ?? 0) >= 1 else { return false }
        return ctx.backgroundCoversClip(sub.presentationFrame)
    }

    /// Whether one of a window's subviews paints every pixel left to draw (its whole area, or the damage
    /// it is clipped to): the black a window without an opaque background starts from need not be painted.
    package static func subviewsCoverClip(of window: Window, in ctx: any GraphicsContext) -> Bool {
        ctx.saveState()
        defer { ctx.restoreState() }
        ctx.translate(by: Point(x: -window.bounds.origin.x, y: -window.bounds.origin.y))
        for sub in window.subviews.reversed() where paintsOverClip(sub, in: ctx) { return true }
        return false
    }
}
