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

    /// What a person reads: what failed, where, and EGL's name for the error.
    public var description: String {
        switch self {
        case .noDisplay(let d, let e): "no EGL display for X server \(d) (\(e)): is an EGL driver (Mesa's libegl-mesa0) installed?"
        case .cannotInitialize(let d, let e): "EGL could not initialize for X server \(d) (\(e))"
        case .noConfig(let d): "EGL on X server \(d) has no configuration for OpenGL ES 3 in 8-bit RGB"
        case .cannotCreateContext(let d, let e): "EGL on X server \(d) refused an OpenGL ES 3 context (\(e))"
        case .incompleteFramebuffer(let w, let h, let s): "the \(w)×\(h) framebuffer is incomplete (status 0x\(String(s, radix: 16)))"
        }
    }
}
