internal import CXlib
import Glibc
import Multihead

/// A bare XCB connection, for reading the screens once: no Xlib display, so none of its start-up (the
/// keyboard extension, the resource database, a GC, its own RandR and Generic Event queries), which
/// was ten round trips of a `multihead screens` that now makes six at most. Bounded like `XConnection`: a
/// server that stops answering is cut by the watchdog and reads as `notResponding`.
@MainActor
final class XCBConnection: ScreenSource {
    package let name: String
    let xcbConnection: OpaquePointer?
    package let root: UInt
    private let watchdog: XWatchdog
    /// The X screens as the connection set-up described them: size in pixels and millimetres.
    private let screens: [(width: Int32, height: Int32, widthMM: Int32, heightMM: Int32)]
    private let defaultScreen: Int32
    private var closed = false
    /// The RandR reads made over this connection: what tests count.
    package var randrTally = RandRBatch.Tally()

    /// Connects to `name` (nil or empty: `DISPLAY`, which must then be set). `xcb_connect`.
    init(name requested: String?, timeout: Double) throws(X11Error) {
        let (name, watchdog) = try XConnection.prepare(name: requested, timeout: timeout)
        var screen: Int32 = 0
        // Never nil: a failed connection is an object in the error state.
        let x = watchdog.bounded { xcb_connect(name, &screen) }
        guard let x, xcb_connection_has_error(x) == 0, let setup = xcb_get_setup(x) else {
            xcb_disconnect(x)
            watchdog.cancel()
            throw watchdog.fired ? .notResponding(name) : .cannotOpenDisplay(name)
        }
        watchdog.watch(descriptor: xcb_get_file_descriptor(x))
        var roots: [(width: Int32, height: Int32, widthMM: Int32, heightMM: Int32)] = []
        var rootWindow: UInt = 0
        var it = xcb_setup_roots_iterator(setup)
        while it.rem > 0, let s = it.data {
            if roots.count == Int(screen) { rootWindow = UInt(s.pointee.root) }
            roots.append((Int32(s.pointee.width_in_pixels), Int32(s.pointee.height_in_pixels),
                          Int32(s.pointee.width_in_millimeters), Int32(s.pointee.height_in_millimeters)))
            xcb_screen_next(&it)
        }
        self.name = name
        xcbConnection = x
        root = rootWindow
        screens = roots
        defaultScreen = screen
        self.watchdog = watchdog
    }

    /// Whether the connection failed (the server went, or the watchdog cut it).
    var isLost: Bool { xcbConnection.map { xcb_connection_has_error($0) != 0 } ?? true }

    package func bounded<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T { try watchdog.bounded(body) }

    package func checkAlive() throws(X11Error) {
        if closed || isLost { throw watchdog.fired ? .notResponding(name) : .connectionLost(name) }
    }

    /// The root window's size now. `xcb_get_geometry`.
    package func rootSize() -> Size {
        guard let x = xcbConnection, !isLost else { return .zero }
        let cookie = xcb_get_geometry(x, xcb_drawable_t(truncatingIfNeeded: root))
        guard let r = bounded({ xcb_get_geometry_reply(x, cookie, nil) }) else { return .zero }
        defer { free(r) }
        return Size(width: Double(r.pointee.width), height: Double(r.pointee.height))
    }

    package func xScreens() -> [ScreenDescription] {
        screens.enumerated().map { s, size in
            ScreenDescription.xScreen(Int32(s), width: size.width, height: size.height, widthMM: size.widthMM,
                                      heightMM: size.heightMM, isDefault: Int32(s) == defaultScreen)
        }
    }

    /// The server's RandR version, nil without the extension. `xcb_get_extension_data`,
    /// `xcb_randr_query_version`.
    func randrVersion() -> (major: UInt32, minor: UInt32)? {
        guard let x = xcbConnection, !isLost else { return nil }
        return bounded {
            guard let ext = mh_randr_extension_data(x), ext.pointee.present != 0 else { return nil }
            let cookie = xcb_randr_query_version(x, 1, 6)
            guard let r = xcb_randr_query_version_reply(x, cookie, nil) else { return nil }
            defer { free(r) }
            return (r.pointee.major_version, r.pointee.minor_version)
        }
    }

    /// Disconnects (no round trip: nothing was written that needs an answer). `xcb_disconnect`.
    func close() {
        guard !closed else { return }
        closed = true
        xcb_disconnect(xcbConnection)
        watchdog.cancel()
    }

    isolated deinit { close() }
}
