/// What draws a `GLView`'s frames (MTKViewDelegate, GLKViewDelegate).
@MainActor
public protocol GLViewDelegate: AnyObject {
    /// Draws one frame: the view's context is current, its framebuffer bound and the viewport set to its
    /// `drawableSize`. What is drawn is shown at the next flush, under the view's subviews. The context is
    /// current only here and in `glView(_:drawableSizeWillChange:)`: GL objects are made and freed here.
    func draw(in view: GLView)
    /// The drawable is about to take this size in pixels (the view or its screen's scale changed); the
    /// next `draw(in:)` draws at it. The default does nothing.
    func glView(_ view: GLView, drawableSizeWillChange size: Size)
}

extension GLViewDelegate {
    /// Nothing: the viewport is set for each frame anyway.
    public func glView(_ view: GLView, drawableSizeWillChange size: Size) {}
}
