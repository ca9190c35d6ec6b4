import CEGL
internal import CProcessControl
import Multihead
import MultiheadX11

/// One EGL display for one application's X server, shared by the GL views shown on it: found through EGL's X11
/// platform over a connection of its own (a desktop's GPU driver; Mesa's llvmpipe on Xvfb, which needs no
/// GLX), or Mesa's surfaceless platform for a backend with no X server. It lives while a view's context
/// does: the last one released terminates it, then closes its connection.
@MainActor
final class GLDevice {
    let display: EGLDisplay
    let config: EGLConfig
    /// Whether a context can be current with no surface (EGL_KHR_surfaceless_context); else each context
    /// gets a 1×1 pbuffer.
    let surfaceless: Bool
    /// The X server's name, or "surfaceless": what errors and logs say.
    let name: String
    /// The connection EGL was given, closed after EGL let go of it.
    private let native: NativeDisplay?

    /// The devices in use and the backends they draw for, both weak: the last view to go ends its device,
    /// and a device is never handed to another backend (a new server may have an old one's display name,
    /// as tests' servers do one after another).
    private static var devices: [Entry] = []
    private struct Entry {
        weak var device: GLDevice?
        weak var backend: (any DisplayBackend)?
    }

    /// The device for the server `backend` shows on, made at the first view of that backend that draws.
    static func device(for backend: any DisplayBackend) throws(GLViewError) -> GLDevice {
        let endpoint = backend.graphicsEndpoint
        // A backend whose connection is gone has no server to draw for (not Mesa's surfaceless one).
        if case .disconnected(let requested) = endpoint {
            throw .noDisplay(display: requested ?? "DISPLAY", eglError: "the X connection is closed")
        }
        devices.removeAll { $0.device == nil || $0.backend == nil }
        for entry in devices where entry.backend === backend {
            if let found = entry.device { return found }
        }
        let made = try GLDevice(endpoint: endpoint)
        devices.append(Entry(device: made, backend: backend))
        return made
    }

    private init(endpoint: GraphicsEndpoint) throws(GLViewError) {
        let server: String? = if case .x11(let d) = endpoint { d } else { nil }
        let name = server ?? "surfaceless"
        self.name = name
        // libEGL and libGLESv2, loaded at the first device (CEGL): a process without them starts, and its
        // GL views show their background.
        if let failure = mh_gl_load() { throw .noDisplay(display: name, eglError: String(cString: failure)) }
        var native: NativeDisplay?
        do { native = try server.map { try NativeDisplay(display: $0) } } catch {
            throw .noDisplay(display: name, eglError: "\(error)")
        }
        let platform = native == nil ? EGLenum(EGL_PLATFORM_SURFACELESS_MESA) : EGLenum(EGL_PLATFORM_X11_KHR)
        guard let d = eglGetPlatformDisplay(platform, native?.pointer, nil) else {
            throw .noDisplay(display: name, eglError: Self.lastError())
        }
        var major: EGLint = 0, minor: EGLint = 0
        guard eglInitialize(d, &major, &minor) == EGL_TRUE else {
            throw .cannotInitialize(display: name, eglError: Self.lastError())
        }
        Self.pinDrivers()
        // Whatever fails from here on leaves EGL terminated before the connection it was given closes.
        func fail(_ error: GLViewError) -> GLViewError {
            eglTerminate(d)
            return error
        }
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else {
            throw fail(.cannotCreateContext(display: name, eglError: Self.lastError()))
        }
        let extensions = eglQueryString(d, EGL_EXTENSIONS).map { String(cString: $0) } ?? ""
        surfaceless = extensions.split(separator: " ").contains("EGL_KHR_surfaceless_context")
        let attributes: [EGLint] = [
            EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
            EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
            EGL_SURFACE_TYPE, surfaceless ? 0 : EGL_PBUFFER_BIT,
            EGL_NONE,
        ]
        var chosen: EGLConfig?
        var count: EGLint = 0
        guard eglChooseConfig(d, attributes, &chosen, 1, &count) == EGL_TRUE, count > 0, let chosen else {
            throw fail(.noConfig(display: name))
        }
        display = d
        config = chosen
        self.native = native
    }

    /// Keeps Mesa's DRI driver loaded for the process's life, as it is for any app that once drew with
    /// it: unloaded at `eglTerminate` (a server's last view gone), it loses a 128-byte cache it never
    /// frees, which LeakSanitizer reports from an unknown module at each cycle. Its handle is never closed.
    /// `mh_pin_dri_drivers` (`dl_iterate_phdr`, `dlopen(RTLD_NOLOAD | RTLD_NODELETE)`).
    private static func pinDrivers() { _ = mh_pin_dri_drivers() }

    /// EGL's name for its last error on this thread. `eglGetError`.
    static func lastError() -> String {
        let code = eglGetError()
        let names: [EGLint: String] = [
            EGL_NOT_INITIALIZED: "EGL_NOT_INITIALIZED", EGL_BAD_ACCESS: "EGL_BAD_ACCESS", EGL_BAD_ALLOC: "EGL_BAD_ALLOC",
            EGL_BAD_ATTRIBUTE: "EGL_BAD_ATTRIBUTE", EGL_BAD_CONFIG: "EGL_BAD_CONFIG", EGL_BAD_CONTEXT: "EGL_BAD_CONTEXT",
            EGL_BAD_DISPLAY: "EGL_BAD_DISPLAY", EGL_BAD_MATCH: "EGL_BAD_MATCH", EGL_BAD_PARAMETER: "EGL_BAD_PARAMETER",
            EGL_BAD_SURFACE: "EGL_BAD_SURFACE", EGL_SUCCESS: "EGL_SUCCESS",
        ]
        return names[code] ?? "EGL error 0x\(String(code, radix: 16))"
    }

    /// Makes an OpenGL ES 3 context (and its 1×1 pbuffer where contexts need a surface).
    /// `eglCreateContext`, `eglCreatePbufferSurface`.
    func makeContext() throws(GLViewError) -> (context: EGLContext, surface: EGLSurface?) {
        let attributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE]
        guard let context = eglCreateContext(display, config, mh_egl_no_context(), attributes) else {
            throw .cannotCreateContext(display: name, eglError: Self.lastError())
        }
        guard !surfaceless else { return (context, nil) }
        let size: [EGLint] = [EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE]
        guard let surface = eglCreatePbufferSurface(display, config, size) else {
            let error = Self.lastError()
            eglDestroyContext(display, context)
            throw .cannotCreateContext(display: name, eglError: error)
        }
        return (context, surface)
    }

    /// Makes a context current on this thread (the main thread: views draw there). `eglMakeCurrent`.
    @discardableResult
    func makeCurrent(_ context: EGLContext?, surface: EGLSurface?) -> Bool {
        eglMakeCurrent(display, surface, surface, context) == EGL_TRUE
    }

    /// Destroys a context and its surface, current or not. `eglDestroyContext`, `eglDestroySurface`.
    func destroy(_ context: EGLContext, surface: EGLSurface?) {
        if eglGetCurrentContext() == context { makeCurrent(nil, surface: nil) }
        eglDestroyContext(display, context)
        if let surface { eglDestroySurface(display, surface) }
    }

    /// EGL lets go of the display before its connection closes (with `native`, after this).
    /// `eglTerminate`, `eglReleaseThread`.
    isolated deinit {
        if eglGetCurrentDisplay() == display { makeCurrent(nil, surface: nil) }
        eglTerminate(display)
        eglReleaseThread()
    }
}
