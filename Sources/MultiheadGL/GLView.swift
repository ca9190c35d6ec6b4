import Multihead

/// A view whose content is drawn with OpenGL ES 3 (MTKView's and GLKView's shape): its delegate draws
/// each frame into the view's own framebuffer, and the frame is shown in its place among the other views:
/// under its subviews, over what is behind it, with its window's level, its own and its window's
/// `isHidden` and `alpha`, and its superviews' clipping.
///
/// Unless paused, the application's frame clock drives it at its screen's rate (or
/// `preferredFramesPerSecond`), in the same wake-up as the display links and animations. With
/// `enableSetNeedsDisplay` it draws only after `setNeedsDisplay()`. Its context and the objects in it stay
/// for the view's life, across screens; its framebuffer goes when it leaves its window. Where EGL cannot
/// be had, or its drawable is larger than GL takes (a side over GL_MAX_TEXTURE_SIZE, say), it draws its
/// `backgroundColor`, logs one warning and says why in `renderingError`.
@MainActor
open class GLView: View {
    /// What draws the frames; not retained (as MTKView's delegate is not).
    public weak var delegate: (any GLViewDelegate)?

    /// Frames per second wanted; 0 (the default) is its screen's rate. Below 0 is 0.
    public var preferredFramesPerSecond: Int = 0 {
        didSet {
            if preferredFramesPerSecond < 0 { preferredFramesPerSecond = 0 }
            link?.preferredFramesPerSecond = preferredFramesPerSecond
        }
    }

    /// While true the frame clock does not call it and it draws by itself no more (not when shown or resized
    /// either): it shows its last frame. With `enableSetNeedsDisplay` it still draws when asked.
    public var isPaused = false {
        didSet { if oldValue != isPaused { updateLink() } }
    }

    /// True: it draws only after `setNeedsDisplay()` (and when it is first shown or resized), as MTKView
    /// does; the frame clock then does not call it.
    public var enableSetNeedsDisplay = false {
        didSet { if oldValue != enableSetNeedsDisplay { updateLink() } }
    }

    /// Whether its framebuffer has a 24-bit depth and 8-bit stencil buffer (GLKView's
    /// `drawableDepthFormat`); none by default.
    public var drawableDepthFormat: DepthFormat = .none {
        didSet { if oldValue != drawableDepthFormat { requestFrame() } }
    }

    /// The depth and stencil buffers a view's framebuffer may have.
    public enum DepthFormat: Sendable {
        /// No depth or stencil buffer.
        case none
        /// A 24-bit depth buffer and an 8-bit stencil buffer.
        case depth24Stencil8
    }

    /// The size of its framebuffer in pixels: its bounds at its screen's scale (0×0 while its bounds are
    /// empty). A size GL cannot take is not drawn: the view says so in `renderingError`.
    public var drawableSize: Size {
        let s = contentScaleFactor
        func pixels(_ v: Double) -> Double { v > 0 ? max(1, (v * s).rounded()) : 0 }
        return Size(width: pixels(bounds.width), height: pixels(bounds.height))
    }

    /// Why it cannot draw with GL, once it tried (the same as the warning it logged); nil while it can.
    public private(set) var renderingError: GLViewError?

    /// Frames drawn by its delegate so far (each `draw(in:)`).
    public private(set) var framesDrawn = 0

    var renderer: GLRenderer?
    /// Its frames while it runs: a display link of its window's screen, on the application's frame clock.
    private var link: DisplayLink?
    /// A frame is owed at the next layout: shown, resized, or `setNeedsDisplay()` with
    /// `enableSetNeedsDisplay`.
    private var frameRequested = true
    /// Inside `draw(in:)`: what would free the framebuffer waits until it returns.
    private var isDrawing = false
    private var leftWindowWhileDrawing = false
    /// The GL errors already logged: each is logged once per view, not once a frame.
    private(set) var loggedGLErrors: Set<String> = []

    /// Makes a view with a frame in its future superview's coordinates.
    public override init(frame: Rect) {
        super.init(frame: frame)
    }

    /// Draws a frame now (the delegate's `draw(in:)`), shown at the next flush; nothing outside a window.
    public func display() {
        guard window != nil else { return }
        if render() { super.setNeedsDisplay() }
    }

    /// Its last frame, top row first: what the delegate drew, read back from its framebuffer (0×0 before
    /// the first frame).
    public func snapshot() -> Bitmap { renderer?.bitmap() ?? Bitmap(width: 0, height: 0) }

    /// Marks it for drawing; with `enableSetNeedsDisplay` its delegate also draws a new frame before the
    /// next flush (several calls before one flush draw once).
    open override func setNeedsDisplay() {
        if enableSetNeedsDisplay { requestFrame() }
        super.setNeedsDisplay()
    }

    /// Copies its last frame into the window's pixels: under its subviews, within its clip and alpha.
    open override func draw(_ rect: Rect, in context: any GraphicsContext) {
        // Drawn means shown: a window shown again on another screen needs the link of that screen.
        updateLink()
        guard let frame = renderer?.frame, let target = context as? any PixelFrameDrawing else {
            // Nothing of its own drawn here: its background must be.
            drawsOpaqueBounds = false
            return
        }
        target.draw(frame, in: bounds)
    }

    /// Draws the frame owed (shown, resized, asked for), in the layout before the flush that shows it.
    open override func layoutSubviews() {
        super.layoutSubviews()
        let size = drawableSize
        if let r = renderer, Double(r.width) != size.width || Double(r.height) != size.height { frameRequested = true }
        // A paused view draws only when asked (`display()`, or `setNeedsDisplay()` with
        // `enableSetNeedsDisplay`); a hidden one not at all until shown.
        defer { updateOpacity() }
        guard frameRequested, enableSetNeedsDisplay || !isPaused, isShown else { return }
        if render() { super.setNeedsDisplay() }
    }

    /// It came into a window (its link starts) or left one (its link stops, its framebuffer goes).
    open override func didMoveToWindow() {
        super.didMoveToWindow()
        updateLink()
        if window == nil {
            drawsOpaqueBounds = false
            if isDrawing { leftWindowWhileDrawing = true } else { renderer?.freeFramebuffer() }
        } else {
            requestFrame()
        }
    }

    /// A new scale draws a new frame at the new drawable size.
    open override func traitCollectionDidChange(_ previous: TraitCollection?) {
        super.traitCollectionDidChange(previous)
        requestFrame()
    }

    /// A frame of the drawable's size covers its bounds opaque: its background and what is under it are
    /// not drawn. A stretched one (paused, then resized) does not: cairo blends its edges.
    private func updateOpacity() {
        let size = drawableSize
        drawsOpaqueBounds = renderer.map { $0.frame != nil && Double($0.frameWidth) == size.width && Double($0.frameHeight) == size.height } ?? false
    }

    private func requestFrame() {
        frameRequested = true
        setNeedsLayout()
    }

    /// Whether it and every view above it are shown: hidden ones draw nothing, so nothing is rendered.
    private var isShown: Bool {
        var v: View? = self
        while let cur = v {
            if cur.isHidden || cur.alpha <= 0 { return false }
            v = cur.superview
        }
        return window != nil
    }

    /// Runs a link on its window's screen while it should draw by itself; stops it otherwise.
    private func updateLink() {
        let wanted = window.flatMap { w in !isPaused && !enableSetNeedsDisplay && renderingError == nil ? w.screen : nil }
        if let link, link.isValid, link.isScheduled, link.screen === wanted, wanted != nil { return }
        link?.invalidate()
        link = nil
        guard let wanted, wanted.isConnected else { return }
        let made = DisplayLink(screen: wanted) { [weak self] _ in self?.tick() }
        made.preferredFramesPerSecond = preferredFramesPerSecond
        made.add(to: .main, forMode: .common)
        link = made
    }

    /// A frame of its screen: a frame drawn and shown at this frame's flush.
    private func tick() {
        guard let window, link?.screen === window.screen else { return updateLink() }
        guard !isPaused, !enableSetNeedsDisplay, isShown else { return }
        if render() { super.setNeedsDisplay() }
    }

    /// Has the delegate draw a frame and reads it back; false when nothing was drawn.
    @discardableResult
    private func render() -> Bool {
        frameRequested = false
        guard renderingError == nil, let window else { return false }
        let size = drawableSize
        guard size.width > 0, size.height > 0 else { return false }
        do throws(GLViewError) {
            let r: GLRenderer
            if let renderer { r = renderer } else {
                r = try GLRenderer(device: GLDevice.device(for: window.application.backend))
                renderer = r
            }
            guard r.makeCurrent() else {
                throw GLViewError.cannotCreateContext(display: r.device.name, eglError: GLDevice.lastError())
            }
            // Current for this frame only: the next may be drawn on another thread.
            defer { r.release() }
            // GL's limits before any integer: a finite but huge drawable is refused here, not trapped on.
            let (w, h) = try r.pixelSize(of: size)
            let depth = drawableDepthFormat == .depth24Stencil8
            if w != r.width || h != r.height || r.hasDepth != depth {
                delegate?.glView(self, drawableSizeWillChange: size)
                try r.resize(width: w, height: h, depth: depth)
            }
            glViewport(0, 0, GLsizei(w), GLsizei(h))
            _ = r.takeErrors()
            isDrawing = true
            delegate?.draw(in: self)
            isDrawing = false
            framesDrawn += 1
            // The delegate took the view out of its window: the frame goes with the framebuffer.
            if leftWindowWhileDrawing || self.window == nil {
                leftWindowWhileDrawing = false
                r.freeFramebuffer()
                return false
            }
            // Its own framebuffer again, should the delegate have bound another.
            guard r.makeCurrent() else { return false }
            for error in r.takeErrors() where loggedGLErrors.insert(error).inserted {
                Application.logger.warning("GL error \(error) after draw(in:) of GLView \(frame)")
            }
            r.readBack()
            updateOpacity()
            return true
        } catch {
            isDrawing = false
            // No frame of an earlier size stretched over it: it draws its background.
            renderer?.freeFramebuffer()
            renderingError = error
            Application.logger.warning("GLView \(frame) draws its background only: \(error)")
            updateLink()
            return false
        }
    }

    isolated deinit { link?.invalidate() }
}
