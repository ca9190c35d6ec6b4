internal import CXlib
import Foundation
import Multihead
import Synchronization
import MultiheadProcess

/// One connection to an X server, used from the main actor only: error trapping per request range,
/// and a lost connection turned into thrown errors instead of Xlib's `exit()`.
@MainActor
package final class XConnection {
    package let display: OpaquePointer
    /// The display's XCB side, fixed for its life: read once here, not by `XGetXCBConnection` (a call into
    /// another library) at each of a frame's `isLost` checks.
    private let xcb: OpaquePointer?
    /// The display name as the user gave it (or `DISPLAY`).
    package let name: String
    private var closed = false
    private var grabDepth = 0
    /// The RandR reads made over this connection: what tests count.
    package var randrTally = RandRBatch.Tally()
    /// The barriers (`sync()`) made over this connection: what tests count (a frame makes none).
    private(set) var syncCount = 0
    /// The first request not yet sent at the last `flush()`.
    private var flushedBefore: UInt = 0
    /// The shared buffer the last screenshot was read through, kept for the next one of the same size: a
    /// new segment's pages fault in on both sides at each read (most of a 1920×1080 read's time).
    var screenshotBuffer: PixelBuffer?

    /// Bounds every wait on the server (connecting included).
    let watchdog: XWatchdog

    /// The default bound on a wait for the server, in seconds.
    static let defaultTimeout = 5.0

    /// Opens a display; a nil or empty name means `DISPLAY`, which must then be set (no fallback). A
    /// server that does not answer within `timeout` seconds, here or in any later request, is
    /// `notResponding`, and the connection is lost. `connectBy` (a `MonotonicClock` time) ends the wait
    /// for the connection itself sooner.
    package init(name requested: String?, timeout: Double = XConnection.defaultTimeout, connectBy: Double? = nil) throws(X11Error) {
        let (name, watchdog) = try Self.prepare(name: requested, timeout: timeout)
        XErrorTrap.install()
        let opened = watchdog.bounded(until: connectBy) { XOpenDisplay(name) }
        guard let d = opened else {
            watchdog.cancel()
            throw watchdog.fired ? .notResponding(name) : .cannotOpenDisplay(name)
        }
        watchdog.watch(descriptor: mh_connection_number(d))
        self.watchdog = watchdog
        // malloc may hand out the address of a Display closed earlier: whatever was recorded for it is not ours.
        XErrorTrap.forget(d)
        XErrorTrap.setOurs(d, true)
        display = d
        xcb = XGetXCBConnection(d)
        self.name = name
        XSetIOErrorExitHandler(d, XErrorTrap.exitHandler, nil)
    }

    /// The display name to open (nil or empty: `DISPLAY`, which must then be set) and a watchdog for the
    /// timeout (a non-finite or non-positive one is the default); shared with `XCBConnection`.
    static func prepare(name requested: String?, timeout: Double) throws(X11Error) -> (name: String, watchdog: XWatchdog) {
        // getenv, not ProcessInfo: building the whole environment dictionary is a tenth of a CLI's connect.
        let env = getenv("DISPLAY").map { String(cString: $0) } ?? ""
        let name = (requested?.isEmpty == false ? requested : nil) ?? env
        guard !name.isEmpty else { throw .cannotOpenDisplay("") }
        return (name, XWatchdog(timeout: timeout.isFinite && timeout > 0 ? timeout : defaultTimeout, display: name))
    }

    /// How many connections of this process are open (closed ones, by a cancelled read source's handler,
    /// leave the count): what a leak check waits on before it counts descriptors.
    package static var openCount: Int { XErrorTrap.oursCount }

    /// Whether Xlib reported the connection lost, or its XCB side failed (`RandRBatch` reads through it).
    package var isLost: Bool {
        // A closed Display is freed memory: never look inside it, and never let a caller that guards with
        // `isLost` hand it to Xlib.
        if closed { return true }
        // The set only once a display was lost at all: its lookup hashes, and a frame asks several times.
        if XErrorTrap.anyLost.load(ordering: .relaxed), XErrorTrap.isMarkedLost(display) { return true }
        guard let xcb else { return false }
        return xcb_connection_has_error(xcb) != 0
    }

    /// Throws `connectionLost` (or `notResponding`, when the watchdog cut it) once the connection is gone;
    /// call before every request.
    package func checkAlive() throws(X11Error) {
        if closed || isLost { throw lostError }
    }

    /// Why the connection is gone: the server went away, or stopped answering.
    var lostError: X11Error { watchdog.fired ? .notResponding(name) : .connectionLost(name) }

    /// Runs `body` bounded by the connection's timeout: a server that does not answer in time loses the
    /// connection instead of blocking for ever.
    package func bounded<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T { try watchdog.bounded(body) }

    /// Runs `body` bounded by the connection's timeout, or by `until` (a `MonotonicClock` time) when that
    /// comes first.
    package func bounded<T, E: Error>(until: Double?, _ body: () throws(E) -> T) throws(E) -> T {
        try watchdog.bounded(until: until, body)
    }

    package var root: UInt { mh_default_root_window(display) }
    var fileDescriptor: Int32 { mh_connection_number(display) }

    /// Runs `body`, waits for the server to answer everything it sent (XSync), and throws the first X
    /// error among those requests; errors of other requests are left for `drainStrayErrors`.
    @discardableResult
    package func trap<T>(_ what: String, _ body: () throws -> T) throws -> T {
        try bounded { try trapNow(what, body) }
    }

    private func trapNow<T>(_ what: String, _ body: () throws -> T) throws -> T {
        let (result, errors) = try answered(body)
        if let e = errors.first { throw X11Error.protocolError(display: name, request: "\(what) (\(e.request))", error: e.text, code: e.code) }
        return result
    }

    /// Runs `body` and forgets the X errors of its requests: for reads of other clients' windows, one of
    /// which may be gone (a window manager's list can name a window destroyed a moment ago), which the
    /// reader then skips. Ends with the server having answered them all (`XSync`).
    package func forgivingErrors<T>(_ body: () throws -> T) throws -> T {
        try bounded { try answered(body).result }
    }

    /// Runs `body` under an error trap, waits until the server has answered its requests, and gives the
    /// X errors of those requests (oldest first) with its result.
    private func answered<T>(_ body: () throws -> T) throws -> (result: T, errors: [XErrorRecord]) {
        try checkAlive()
        let start = UInt(mh_next_request(display))
        let mine = XErrorTrap.key(display)
        let outermost = XErrorTrap.beginTrap(mine, at: start)
        defer { if outermost { XErrorTrap.endTrap(mine) } }
        let result = try body()
        let end = UInt(mh_next_request(display))
        // Replies come in request order: once the last request was answered, every error of the range is
        // in, and an extra round trip (XSync) would only wait.
        if UInt(XLastKnownRequestProcessed(display)) + 1 < end { syncNow() }
        try checkAlive()
        return (result, takeErrors(from: start, to: end))
    }

    /// Takes the recorded X errors of this connection's requests in `[start, end)` (answered already: the
    /// caller synced), oldest first.
    func takeErrors(from start: UInt, to end: UInt) -> [XErrorRecord] {
        let mine = XErrorTrap.key(display)
        return XErrorTrap.take { $0.display == mine && $0.serial >= start && $0.serial < end }
    }

    /// Gives back errors taken but not handled, for `drainStrayErrors`.
    func putBack(_ errors: [XErrorRecord]) { XErrorTrap.putBack(errors) }

    /// Logs and forgets X errors no trap claimed (from requests whose answer nobody waited for); returns
    /// the resource IDs they named, so that the caller can re-sync what they were about.
    @discardableResult
    func drainStrayErrors() -> [UInt] {
        let mine = XErrorTrap.key(display)
        let stray = XErrorTrap.take { $0.display == mine }
        for r in stray { Application.logger.warning("X error on \(name): \(r.request): \(r.text)") }
        return stray.map(\.resource)
    }

    /// Runs `body` under a server grab, so that other clients see its changes as one; nested calls share
    /// the outermost grab (the server does not count grabs). Ends with the server having applied
    /// everything (`XSync`). `XGrabServer`, `XUngrabServer`.
    package func grabbed<T>(_ body: () throws -> T) throws -> T {
        try bounded { try grabbedNow(body) }
    }

    private func grabbedNow<T>(_ body: () throws -> T) throws -> T {
        try checkAlive()
        grabDepth += 1
        if grabDepth == 1 { XGrabServer(display) }
        defer {
            grabDepth -= 1
            if grabDepth == 0, !isLost {
                XUngrabServer(display)
                syncNow()
            }
        }
        return try body()
    }

    /// The root window's size as the server has it now (Xlib's cached screen size lags behind RandR
    /// changes made by other clients). `XGetGeometry`.
    package func rootSize() -> Size {
        var r: CXlib.Window = 0, x: Int32 = 0, y: Int32 = 0, w: UInt32 = 0, h: UInt32 = 0, border: UInt32 = 0, depth: UInt32 = 0
        let ok = bounded { XGetGeometry(display, Drawable(root), &r, &x, &y, &w, &h, &border, &depth) }
        guard !isLost, ok != 0 else { return .zero }
        return Size(width: Double(w), height: Double(h))
    }


    /// Waits until the server has processed every request sent so far, bounded by the timeout. `XSync`.
    package func sync() {
        bounded { syncNow() }
    }

    private func syncNow() {
        guard !isLost else { return }
        syncCount += 1
        XSync(display, 0)
    }

    /// Sends buffered requests (XFlush).
    func flush() {
        guard !isLost else { return }
        XFlush(display)
        flushedBefore = UInt(mh_next_request(display))
    }

    /// Sends buffered requests unless none was made since the last `flush()`: Xlib's flush also reads
    /// the socket, a system call a frame waiting for the server need not make twice. `XFlush`.
    func flushIfNeeded() {
        if !isLost, UInt(mh_next_request(display)) != flushedBefore { flush() }
    }

    /// Closes the connection (XCloseDisplay), a lost one too: libX11 1.8 sends nothing on a connection that
    /// had its IO error (it may print "request … would exceed buffer size" for the requests it drops), and
    /// frees the socket and the `Display`, so that a test suite that stops servers under live apps leaks
    /// neither. From then on the connection reads as lost and no Xlib call touches it. The last connection
    /// closed gives the process back the Xlib handlers it had before.
    package func close() {
        guard !closed else { return }
        screenshotBuffer?.release(connectionAlive: !isLost)
        screenshotBuffer = nil
        // Bounded like any wait: XCloseDisplay syncs, and a server that stopped would hold it for ever.
        bounded { _ = XCloseDisplay(display) }
        closed = true
        watchdog.cancel()
        XErrorTrap.forget(display)
        if XErrorTrap.setOurs(display, false) == 0 { XErrorTrap.uninstall() }
    }

    isolated deinit { close() }
}
