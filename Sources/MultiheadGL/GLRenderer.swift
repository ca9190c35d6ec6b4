import CEGL
#if canImport(Glibc)
import Glibc
#endif
import Multihead

/// One GL view's context and the framebuffer it draws into, and the last frame read back from it: the
/// view's GL objects live here, made, resized and freed in one place.
@MainActor
final class GLRenderer {
    let device: GLDevice
    let context: EGLContext
    let surface: EGLSurface?
    /// The framebuffer object and its colour texture (or renderbuffer) and depth-stencil renderbuffer;
    /// 0 while there is no drawable.
    private(set) var framebuffer: GLuint = 0
    private var color: GLuint = 0
    private var depth: GLuint = 0
    /// Its size in pixels (0×0: none).
    private(set) var width = 0, height = 0
    /// Whether it has a depth and stencil buffer.
    private(set) var hasDepth = false
    /// Whether the colour is kept and read as B, G, R, A (EXT_texture_format_BGRA8888 and
    /// EXT_read_format_bgra): read back as the window's pixels are, with no conversion.
    private let readsBGRA: Bool
    /// The last frame read back, bottom row first; nil before the first.
    private var pixels: UnsafeMutableRawPointer?
    /// The size of the frame in `pixels`.
    private(set) var frameWidth = 0, frameHeight = 0
    /// The longest side of a framebuffer GL takes here: the smallest of GL_MAX_RENDERBUFFER_SIZE (the
    /// depth-stencil buffer's, and the colour's unless it is a texture), GL_MAX_TEXTURE_SIZE (when the
    /// colour is a texture) and GL_MAX_VIEWPORT_DIMS, asked once; never more than GLsizei holds.
    let largestSide: Int

    init(device: GLDevice) throws(GLViewError) {
        self.device = device
        (context, surface) = try device.makeContext()
        guard device.makeCurrent(context, surface: surface) else {
            let error = GLDevice.lastError()
            device.destroy(context, surface: surface)
            throw .cannotCreateContext(display: device.name, eglError: error)
        }
        let extensions = glGetString(GLenum(GL_EXTENSIONS)).map { String(cString: $0) } ?? ""
        let names = Set(extensions.split(separator: " "))
        readsBGRA = names.contains("GL_EXT_texture_format_BGRA8888") && names.contains("GL_EXT_read_format_bgra")
        largestSide = Self.largestSide(colourIsTexture: readsBGRA)
        release()
    }

    /// What the current context takes as a framebuffer's side (see `largestSide`).
    /// `glGetIntegerv(GL_MAX_TEXTURE_SIZE, GL_MAX_RENDERBUFFER_SIZE, GL_MAX_VIEWPORT_DIMS)`.
    private static func largestSide(colourIsTexture: Bool) -> Int {
        var texture: GLint = 0, renderbuffer: GLint = 0
        var viewport: [GLint] = [0, 0]
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &texture)
        glGetIntegerv(GLenum(GL_MAX_RENDERBUFFER_SIZE), &renderbuffer)
        glGetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &viewport)
        // A limit the driver did not say (left 0) limits nothing; GLsizei's range does.
        let limits = ([renderbuffer, viewport[0], viewport[1]] + (colourIsTexture ? [texture] : [])).filter { $0 > 0 }
        return Int(limits.min() ?? GLint.max)
    }

    /// A drawable's size as whole pixels, when each side is at most `largestSide`: checked on the
    /// Doubles, before any conversion to an integer (a huge or non-finite one would trap there).
    func pixelSize(of size: Size) throws(GLViewError) -> (width: Int, height: Int) {
        let limit = Double(largestSide)
        guard size.width >= 0, size.height >= 0, size.width <= limit, size.height <= limit,
              let w = Int(exactly: size.width.rounded()), let h = Int(exactly: size.height.rounded()) else {
            throw .drawableTooLarge(width: size.width, height: size.height, limit: largestSide)
        }
        return (w, h)
    }

    /// Makes the context current and binds the framebuffer: for one job of the main actor, which ends
    /// with `release()`. `eglMakeCurrent`, `glBindFramebuffer`.
    func makeCurrent() -> Bool {
        guard device.makeCurrent(context, surface: surface) else { return false }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        return true
    }

    /// The context is current on no thread again. A context is current on a thread, and the main actor's
    /// jobs may each run on another one (under `dispatch_main`, which an async `main` and Swift Testing
    /// use, the main queue is drained by the pool's threads): one left current on the last job's thread
    /// cannot be made current on the next (EGL_BAD_ACCESS). `eglMakeCurrent` with no context.
    func release() {
        if eglGetCurrentContext() == context { device.makeCurrent(nil, surface: nil) }
    }

    /// Gives the framebuffer this size (and a depth-stencil buffer or none); nothing when it has them.
    /// The context must be current. `glTexImage2D`, `glRenderbufferStorage`, `glCheckFramebufferStatus`.
    func resize(width w: Int, height h: Int, depth wantsDepth: Bool) throws(GLViewError) {
        guard w != width || h != height || wantsDepth != hasDepth || framebuffer == 0 else { return }
        freeFramebuffer()
        let FB = GLenum(GL_FRAMEBUFFER)
        glGenFramebuffers(1, &framebuffer)
        glBindFramebuffer(FB, framebuffer)
        if readsBGRA {
            glGenTextures(1, &color)
            glBindTexture(GLenum(GL_TEXTURE_2D), color)
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, Self.bgra, GLsizei(w), GLsizei(h), 0, GLenum(Self.bgra), GLenum(GL_UNSIGNED_BYTE), nil)
            glFramebufferTexture2D(FB, GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), color, 0)
            glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        } else {
            glGenRenderbuffers(1, &color)
            glBindRenderbuffer(GLenum(GL_RENDERBUFFER), color)
            glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(w), GLsizei(h))
            glFramebufferRenderbuffer(FB, GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), color)
        }
        if wantsDepth {
            glGenRenderbuffers(1, &depth)
            glBindRenderbuffer(GLenum(GL_RENDERBUFFER), depth)
            glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_DEPTH24_STENCIL8), GLsizei(w), GLsizei(h))
            glFramebufferRenderbuffer(FB, GLenum(GL_DEPTH_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER), depth)
        }
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), 0)
        (width, height, hasDepth) = (w, h, wantsDepth)
        let status = glCheckFramebufferStatus(FB)
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            freeFramebuffer()
            throw .incompleteFramebuffer(width: w, height: h, status: status)
        }
    }

    /// GL_BGRA_EXT, from GLES2/gl2ext.h (which is not imported with GLES 3's header).
    private static let bgra: GLint = 0x80E1

    /// Reads the frame just drawn into `pixels` as B, G, R, X words (swapping red and blue when the
    /// driver reads only RGBA). The context must be current. `glReadPixels`.
    func readBack() {
        guard framebuffer != 0, width > 0, height > 0 else { return }
        if pixels == nil || frameWidth != width || frameHeight != height {
            free(pixels)
            pixels = malloc(width * height * 4)
            (frameWidth, frameHeight) = (width, height)
        }
        guard let pixels else { return }
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
        glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(readsBGRA ? Self.bgra : GL_RGBA), GLenum(GL_UNSIGNED_BYTE), pixels)
        guard !readsBGRA else { return }
        let words = pixels.bindMemory(to: UInt32.self, capacity: width * height)
        for i in 0..<(width * height) {
            let v = words[i]
            words[i] = (v & 0xFF00_FF00) | ((v & 0xFF) << 16) | ((v >> 16) & 0xFF)
        }
    }

    /// The last frame read back, valid until the next `readBack` or `freeFramebuffer`.
    var frame: PixelFrame? {
        guard let pixels, frameWidth > 0, frameHeight > 0 else { return nil }
        return PixelFrame(base: UnsafeRawPointer(pixels), width: frameWidth, height: frameHeight, bytesPerRow: frameWidth * 4)
    }

    /// The last frame as a bitmap, top row first (0×0 before the first).
    func bitmap() -> Bitmap {
        guard let frame else { return Bitmap(width: 0, height: 0) }
        let w = frame.width, h = frame.height
        let words = frame.base.assumingMemoryBound(to: UInt32.self)
        var out = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            let row = (h - 1 - y) * w
            for x in 0..<w { out[y * w + x] = words[row + x] & 0x00FF_FFFF }
        }
        return Bitmap(width: w, height: h, pixels: out)
    }

    /// The GL errors raised since the last call, as GL's names. `glGetError`.
    func takeErrors() -> [String] {
        var errors: [String] = []
        var code = glGetError()
        while code != GLenum(GL_NO_ERROR), errors.count < 8 {
            let names: [Int32: String] = [
                GL_INVALID_ENUM: "GL_INVALID_ENUM", GL_INVALID_VALUE: "GL_INVALID_VALUE",
                GL_INVALID_OPERATION: "GL_INVALID_OPERATION", GL_OUT_OF_MEMORY: "GL_OUT_OF_MEMORY",
                GL_INVALID_FRAMEBUFFER_OPERATION: "GL_INVALID_FRAMEBUFFER_OPERATION",
            ]
            errors.append(names[Int32(code)] ?? "GL error 0x\(String(code, radix: 16))")
            code = glGetError()
        }
        return errors
    }

    /// Frees the framebuffer, its buffers and the frame read back (the context and its objects stay).
    /// `glDeleteFramebuffers`, `glDeleteTextures`, `glDeleteRenderbuffers`.
    func freeFramebuffer() {
        // Current already inside a frame (a resize); else for these calls only.
        let wasCurrent = eglGetCurrentContext() == context
        if framebuffer != 0 || color != 0 || depth != 0, wasCurrent || device.makeCurrent(context, surface: surface) {
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
            if framebuffer != 0 { glDeleteFramebuffers(1, &framebuffer) }
            if color != 0 { readsBGRA ? glDeleteTextures(1, &color) : glDeleteRenderbuffers(1, &color) }
            if depth != 0 { glDeleteRenderbuffers(1, &depth) }
            if !wasCurrent { release() }
        }
        (framebuffer, color, depth, width, height, hasDepth) = (0, 0, 0, 0, 0, false)
        free(pixels)
        pixels = nil
        (frameWidth, frameHeight) = (0, 0)
    }

    /// The context and everything in it go; the device goes with the last renderer.
    isolated deinit {
        freeFramebuffer()
        device.destroy(context, surface: surface)
    }
}
