/// Whole frames of pixels drawn by something other than the context (OpenGL into memory): the rows of
/// one frame, each pixel a 32-bit 0xXXRRGGBB word (B, G, R, X in memory: what an X server's 24-bit
/// visual and cairo's RGB24 hold), bottom row first as OpenGL reads them back.
package struct PixelFrame {
    /// The first byte of the bottom row.
    package let base: UnsafeRawPointer
    /// Width in pixels.
    package let width: Int
    /// Height in pixels.
    package let height: Int
    /// Bytes from one row to the next.
    package let bytesPerRow: Int

    /// A frame whose memory the caller keeps for as long as it is drawn.
    package init(base: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        self.base = base
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
    }
}

/// A context that draws pixel frames: the X11 presenter's and the offscreen renderer's canvases. A GL
/// view asks its context for it and, where a context has none, draws only its background.
@MainActor
package protocol PixelFrameDrawing: AnyObject {
    /// Draws `frame` over `rect` (the current view's coordinates), opaque, stretched to it when its size
    /// in pixels is not the frame's, within the clip and any transparency layer.
    func draw(_ frame: PixelFrame, in rect: Rect)
}
