/// Why a `GLView` cannot draw with OpenGL ES: it then draws its `backgroundColor` and says so once.
public enum GLViewError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No EGL display could be had for the view's X server (no EGL vendor library, no driver for it).
    case noDisplay(display: String, eglError: String)
    /// The EGL display could not be initialized.
    case cannotInitialize(display: String, eglError: String)
    /// No EGL configuration draws OpenGL ES 3 in 8-bit red, green and blue.
    case noConfig(display: String)
    /// The OpenGL ES 3 context, or the surface it is made current with, was refused.
    case cannotCreateContext(display: String, eglError: String)
    /// The framebuffer the view draws into was refused at that size.
    case incompleteFramebuffer(width: Int, height: Int, status: UInt32)
    /// The view's drawable (its bounds in pixels) has a side longer than GL takes here: `limit` is the
    /// smallest of GL_MAX_RENDERBUFFER_SIZE, GL_MAX_TEXTURE_SIZE (when the colour is a texture) and
    /// GL_MAX_VIEWPORT_DIMS.
    case drawableTooLarge(width: Double, height: Double, limit: Int)

    /// What a person reads: what failed, where, and EGL's name for the error.
    public var description: String {
        switch self {
        case .noDisplay(let d, let e): "no EGL display for X server \(d) (\(e)): is an EGL driver (Mesa's libegl-mesa0) installed?"
        case .cannotInitialize(let d, let e): "EGL could not initialize for X server \(d) (\(e))"
        case .noConfig(let d): "EGL on X server \(d) has no configuration for OpenGL ES 3 in 8-bit RGB"
        case .cannotCreateContext(let d, let e): "EGL on X server \(d) refused an OpenGL ES 3 context (\(e))"
        case .incompleteFramebuffer(let w, let h, let s): "the \(w)×\(h) framebuffer is incomplete (status 0x\(String(s, radix: 16)))"
        case .drawableTooLarge(let w, let h, let limit):
            "the drawable of \(Self.pixels(w))×\(Self.pixels(h)) pixels is larger than GL takes here (at most \(limit) pixels a side)"
        }
    }

    /// A size in pixels as a person writes it: 3000000000, not 3000000000.0 (1e+20 stays as it is).
    private static func pixels(_ v: Double) -> String { Int(exactly: v).map(String.init) ?? "\(v)" }
}
