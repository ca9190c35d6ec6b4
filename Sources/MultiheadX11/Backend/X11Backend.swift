internal import CXlib
import Dispatch
import Foundation
import Multihead

/// The X11 backend: monitors from RandR, hotplug from RandR and root-window events, watched from the
/// main run loop (a read source on the connection's file descriptor).
///
/// ```swift
/// try Application.shared.attach(X11Backend(display: nil))   // nil: $DISPLAY
/// ```
@MainActor
public final class X11Backend: DisplayBackend {
    /// The display name asked for (nil: `DISPLAY`).
    public let requestedDisplay: String?
    var connection: XConnection?
    var reader: MonitorReader?
    var input: BackendInput?
    /// When the connection's events are read: the read source, the frames, or a waiting caller.
    private var pump: EventPump?
    var randrEventBase: Int32 = 0
    package var presenter: X11Presenter?
    /// Whether pixels may travel through MIT-SHM (when the server offers it).
    public let useSharedMemory: Bool
    /// Seconds the server may take to answer (connecting included) before the connection counts as lost
    /// with `X11Error.notResponding`.
    public let timeout: Double

    /// Scales by screen name, ahead of `Xft.dpi` and the monitors' density (`ScreenScalePolicy`).
    public let screenScaleFactors: [String: Double]

    /// Makes a backend for a display name (nil or empty: `DISPLAY`); nothing connects until `start`.
    /// `useSharedMemory: false` sends pixels with `XPutImage` even where MIT-SHM is offered.
    /// A server that does not answer within `timeout` seconds loses the connection (`notResponding`).
    /// `screenScaleFactors` gives screens their scale by name (`["DP-1": 2]`); nil takes them from
    /// `MULTIHEAD_SCREEN_SCALE_FACTORS` (`DP-1=2;HDMI-1=1`; a malformed value is logged and ignored).
    public init(display: String? = nil, useSharedMemory: Bool = true, timeout: Double = 5,
                screenScaleFactors: [String: Double]? = nil) {
        requestedDisplay = display
        self.useSharedMemory = useSharedMemory
        self.timeout = timeout
        self.screenScaleFactors = screenScaleFactors ?? Self.environmentScaleFactors()
    }

    /// The factors of `MULTIHEAD_SCREEN_SCALE_FACTORS`; none when it is unset or malformed (logged).
    /// `getenv`.
    nonisolated static func environmentScaleFactors() -> [String: Double] {
        guard let p = getenv(ScreenScalePolicy.environmentVariable) else { return [:] }
        do {
            return try ScreenScalePolicy.parseFactors(String(cString: p))
        } catch {
            Application.logger.warning("\(ScreenScalePolicy.environmentVariable) ignored: \(error)")
            return [:]
        }
    }

    /// Whether pixels travel through MIT-SHM on this connection.
    public var isUsingSharedMemory: Bool { presenter?.useSharedMemory ?? false }

    /// Times the read source woke for the connection: while frames are clocked, none.
    var sourceWakeups: Int { pump?.sourceWakeups ?? 0 }

    /// Main-queue turns asked for to handle what a frame's flush read: one for frames flushed back to
    /// back before it runs.
    var eventTurnsScheduled: Int { pump?.turnsScheduled ?? 0 }

    /// Whether such a turn is on its way: until it ran, what comes reaches it, not the read source.
    var eventTurnPending: Bool { pump?.turnPending ?? false }

    /// Whether the connection's loss was reported (or the backend stopped): nothing is read any more.
    private var hasEnded: Bool { pump?.hasEnded ?? true }

    /// Waits until the server has read every frame sent so far: a change's pixels are on the server.
    package func waitForReads() { presenter?.waitForReads() }

    /// The RandR reads this backend's connection made (round trips, requests): what tests and the
    /// benchmarks count.
    package var randrTally: RandRBatch.Tally { connection?.randrTally ?? .init() }
    /// The configuration serial of the screens last read (`MonitorReader.configurationSerial`): what
    /// `multihead watch` prints beside each event, which that read posted.
    package var configurationSerial: UInt32 { reader?.configurationSerial ?? 0 }

    /// The display name in use, once connected.
    public var displayName: String? { connection?.name }

    /// The X server GL views draw for, while connected.
    public var graphicsEndpoint: GraphicsEndpoint {
        displayName.map { .x11(display: $0) } ?? .disconnected(requested: requestedDisplay)
    }

    /// Connects, selects the events that announce monitor changes, watches the connection, and reads the
    /// first snapshot.
    public func start(input: BackendInput) throws -> [ScreenDescription] {
        let c = try XConnection(name: requestedDisplay, timeout: timeout)
        return try c.bounded { try start(c, input: input) }
    }

    /// Reads the screens once and disconnects: for a tool that only lists them (no watching, no windows,
    /// no application), as `multihead screens` does.
    /// It connects over XCB alone: Xlib's start-up would be most of the round trips.
    public static func snapshot(display: String? = nil, timeout: Double = 5) throws -> [ScreenDescription] {
        var tally = RandRBatch.Tally()
        return try snapshot(display: display, timeout: timeout, tally: &tally)
    }

    /// The same, saying what the RandR reads cost (for tests).
    static func snapshot(display: String?, timeout: Double, tally: inout RandRBatch.Tally) throws -> [ScreenDescription] {
        try configuration(display: display, timeout: timeout, tally: &tally).screens
    }

    /// The screens and the configuration serial they were read with (`multihead screens --serial`).
    package static func configuration(display: String?, timeout: Double = 5) throws -> (screens: [ScreenDescription], serial: UInt32) {
        var tally = RandRBatch.Tally()
        return try configuration(display: display, timeout: timeout, tally: &tally)
    }

    private static func configuration(display: String?, timeout: Double,
                                      tally: inout RandRBatch.Tally) throws -> (screens: [ScreenDescription], serial: UInt32) {
        let c = try XCBConnection(name: display, timeout: timeout)
        defer { c.close() }
        let v = try requireRandR(c.randrVersion(), c)
        var reader = MonitorReader(connection: c, randr15: hasMonitors(v.major, v.minor), scaleFactors: environmentScaleFactors())
        defer { tally = c.randrTally }
        let screens = try reader.readScreens()
        return (screens, reader.configurationSerial)
    }

    /// The server's RandR: its event base, and whether it has 1.5's monitors; throws without RandR.
    private static func randr15(_ c: XConnection) throws -> (eventBase: Int32, isAtLeast15: Bool) {
        let v = try requireRandR(RandR.version(c), c)
        return (v.eventBase, hasMonitors(v.major, v.minor))
    }

    /// The version a connection read, or the error a person sees: the connection's loss, or no RandR.
    fileprivate static func requireRandR<V>(_ version: V?, _ c: any ScreenSource) throws -> V {
        guard let version else {
            try c.checkAlive()
            throw X11Error.missingExtension(display: c.name, name: "RandR", needed: "1.2 or later")
        }
        return version
    }

    /// Whether a RandR version has 1.5's monitors.
    fileprivate static func hasMonitors(_ major: some BinaryInteger, _ minor: some BinaryInteger) -> Bool {
        major > 1 || (major == 1 && minor >= 5)
    }

    private func start(_ c: XConnection, input: BackendInput) throws -> [ScreenDescription] {
        let (eventBase, randr15) = try Self.randr15(c)
        randrEventBase = eventBase
        // On Xvfb a virtual monitor's arrival or removal sends only a root ConfigureNotify; mode changes
        // send RandR's events. Listen to both.
        // Root properties too: xrdb changing RESOURCE_MANAGER (Xft.dpi, the screens' scale).
        XSelectInput(c.display, c.root, StructureNotifyMask | PropertyChangeMask)
        // RandR 1.4's resource-change events come with any server that has 1.5's monitors.
        // Output properties: a monitor's EDID published (or replaced) after its output changed.
        XRRSelectInput(c.display, c.root, Int32(RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask
                                                 | RROutputPropertyNotifyMask | (randr15 ? RRResourceChangeNotifyMask : 0)))
        c.flush()
        var reader = MonitorReader(connection: c, randr15: randr15, scaleFactors: screenScaleFactors)
        let snapshot = try reader.readScreens()
        connection = c
        self.reader = reader
        self.input = input
        if TextMeasurers.drawingEngine == nil { TextMeasurers.drawingEngine = textMeasurer }
        let p = X11Presenter(connection: c, useSharedMemory: useSharedMemory)
        p.onFailure = { input.failed($0) }
        presenter = p
        // Weak: a read already queued on the main queue may run after the backend's last reference went.
        pump = EventPump(c) { [weak self] in self?.processPendingEvents() }
        return snapshot
    }

    /// Drains the events Xlib has (never blocking: `XNextEvent` only when `XPending` says one is queued,
    /// as it crashes on a dead, empty connection) and re-reads the monitors once if any announced a change;
    /// again while the re-read itself took events off the socket: waiting for its replies, XCB queues
    /// the events that came first, and those would never wake the read source again.
    public func processPendingEvents() {
        guard let c = connection, !hasEnded else { return }
        let perFrame = pump?.readsPerFrame ?? false
        repeat {
            var changed = false
            // While frames read the events, one read of the socket a frame: asking `XPending` again after
            // the last event would read it once more (a system call) to find it empty, and what comes later,
            // or waits in XCB's queue, is read by the next frame. Otherwise until `XPending` finds none: the
            // read source never hears of events XCB queued while waiting for a reply.
            var queued = XPending(c.display)
            while !c.isLost, queued > 0 {
                var e = XEvent()
                XNextEvent(c.display, &e)
                if handle(&e) { changed = true }
                queued -= 1
                if queued == 0, !c.isLost { queued = perFrame ? mh_q_length(c.display) : XPending(c.display) }
            }
            if c.isLost { return lost(c) }
            // The frames' own errors first (a put the server refused fails the app); the rest are strays.
            presenter?.claimFrameErrors()
            // An error about one of our windows (destroyed under us): forget it and show it again.
            for resource in c.drainStrayErrors() {
                if let w = presenter?.lost(xid: resource) { input?.windowNeedsShowingAgain(w) }
            }
            guard changed else { return }
            readScreensAndReport()
        } while connection != nil && !c.isLost && XPending(c.display) > 0
        if c.isLost { lost(c) }
    }

    /// Waits up to `timeout` seconds on this thread for the server to send something, and handles it
    /// (`processPendingEvents`): for a command-line tool that only watches and blocks the main actor while it
    /// does. The read source stays suspended from the first call, so each event wakes one thread (this
    /// one) instead of the source's two. `hangUp`, when given, is a descriptor whose hang-up or error also
    /// ends the wait (a streaming command's stdout, whose reader may leave while no event comes). Returns
    /// false once the connection is lost. `poll`.
    public func waitForEvents(timeout: Double, orHangUpOf hangUp: Int32? = nil) -> Bool {
        guard let c = connection, !hasEnded else { return false }
        // A loss seen elsewhere first (a read on the XCB side) is still reported, once, before saying so.
        if c.isLost {
            lost(c)
            return false
        }
        pump?.callerWaits()
        if XPending(c.display) == 0 && !c.isLost {
            // No events asked of the other descriptor: poll reports its POLLHUP and POLLERR regardless.
            var p = [pollfd(fd: c.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            if let hangUp { p.append(pollfd(fd: hangUp, events: 0, revents: 0)) }
            // Rounded up: a wait of less than a millisecond must not become a poll that returns at once.
            let ms = timeout.isFinite ? Int32((max(0, min(timeout, 86_400)) * 1000).rounded(.up)) : -1
            _ = poll(&p, nfds_t(p.count), ms)
        }
        processPendingEvents()
        return connection != nil && !c.isLost && !hasEnded
    }

    /// Whether the event may have changed the monitors. RandR's events also say the screen resources
    /// changed; a root `ConfigureNotify` alone (Xvfb's virtual monitors) leaves them as they were.
    private func handle(_ e: inout XEvent) -> Bool {
        let type = e.type
        if type == randrEventBase + RRScreenChangeNotify {
            // Keeps Xlib's idea of the screen size current.
            XRRUpdateConfiguration(&e)
            reader?.invalidate()
            return true
        }
        if type == randrEventBase + RRNotify {
            XRRUpdateConfiguration(&e)
            let (subtype, crtc) = withUnsafePointer(to: &e) {
                $0.withMemoryRebound(to: XRRCrtcChangeNotifyEvent.self, capacity: 1) { ($0.pointee.subtype, UInt($0.pointee.crtc)) }
            }
            // A CRTC that changed may have a new ramp; a resource change may have new CRTCs.
            reader?.invalidate(crtc: subtype == RRNotify_CrtcChange ? crtc : nil, gamma: subtype == RRNotify_ResourceChange)
            return true
        }
        if type == ConfigureNotify, let c = connection, e.xconfigure.window == c.root { return true }
        if type == PropertyNotify, let c = connection, e.xproperty.window == c.root, e.xproperty.atom == Atom(XA_RESOURCE_MANAGER) {
            // Read with the monitors, in the same round trip; an unchanged scale changes no screen.
            reader?.scaleNeedsRead = true
            return true
        }
        handleWindowEvent(&e)
        return false
    }

    /// A barrier: waits until the server has answered everything sent so far (`XSync`), then handles every
    /// event that arrived before that answer. After another client's change returned (the kit's `plug`
    /// syncs), the model has seen its consequences once this returns.
    public func synchronize() throws {
        guard let c = connection else { throw X11Error.connectionLost(requestedDisplay ?? "") }
        try c.checkAlive()
        c.sync()
        processPendingEvents()
        try c.checkAlive()
    }

    /// Reads the monitors afresh: RandR 1.5 monitors with their outputs' modes, the screen resources read
    /// again too (two round trips); only the gamma of CRTCs that have not changed is taken from before.
    public func readScreens() throws -> [ScreenDescription] {
        try readScreens(refreshResources: true)
    }

    func readScreens(refreshResources: Bool) throws -> [ScreenDescription] {
        guard let c = connection, var r = reader else { throw X11Error.connectionLost(requestedDisplay ?? "") }
        try c.checkAlive()
        let snapshot = try r.readScreens(refreshResources: refreshResources)
        reader = r
        return snapshot
    }

    func readScreensAndReport() {
        guard let c = connection else { return }
        do {
            input?.screensDidChange(try readScreens(refreshResources: false))
        } catch {
            if c.isLost { return lost(c) }
            // A monitor that vanished mid-read: the event that follows its removal re-syncs.
            Application.logger.warning("re-reading monitors failed: \(error)")
        }
    }

    private func lost(_ c: XConnection) {
        guard let pump, !pump.hasEnded else { return }
        pump.end()
        input?.connectionLost(c.lostError)
    }

    /// Stops watching and closes the connection.
    public func stop() {
        presenter?.tearDown()
        presenter = nil
        let c = connection
        c?.flush()
        connection = nil
        reader = nil
        input = nil
        // The descriptor must outlive its read source (libdispatch): the display closes once the source's
        // cancellation is done, whether `stop()` or a lost connection cancelled it.
        if let pump {
            pump.end(closing: c)
        } else {
            c?.close()
        }
        pump = nil
    }

    /// While a frame clock runs, the application reads the events once a frame (`EventPump.Reader.frames`).
    public func frameClockChanged(isRunning: Bool) {
        pump?.frameClockChanged(isRunning: isRunning)
    }

    isolated deinit { stop() }

    /// Shows the scene: an override-redirect X window per visible window, drawn with cairo, stacked; then
    /// sends it.
    public func present(_ scene: Scene) {
        guard let p = presenter, let c = connection else { return }
        p.present(scene)
        c.flush()
        // A frame waiting for the server's read of a buffer reads too: queued already is what was read.
        pump?.flushed(leavingQueued: !c.isLost && mh_q_length(c.display) > 0)
    }

    /// True: a frame lists only the windows that changed.
    public var acceptsPartialScenes: Bool { true }

    /// Gives the key window's X window the input focus (`XSetInputFocus`).
    public func focus(_ window: Multihead.Window?) { presenter?.focus(window) }

    /// The X window that shows a model window, once it has been shown.
    public func xWindow(for window: Multihead.Window) -> UInt? { presenter?.xid(for: window) }
}

extension X11Backend {
    /// Reads the screens over a connection the caller holds and keeps (the control socket answers
    /// `screens` on the kit's own connection, with no connection of its own): the same reader, order and
    /// descriptions as `snapshot(display:)`.
    package static func snapshot(over c: XConnection, scaleFactors: [String: Double] = [:]) throws -> [ScreenDescription] {
        try configuration(over: c, scaleFactors: scaleFactors).screens
    }

    /// The same screens and the configuration serial they were read with.
    package static func configuration(over c: XConnection,
                                      scaleFactors: [String: Double] = [:]) throws -> (screens: [ScreenDescription], serial: UInt32) {
        let v = try requireRandR(RandR.version(c), c)
        var reader = MonitorReader(connection: c, randr15: hasMonitors(v.major, v.minor), scaleFactors: scaleFactors)
        let screens = try reader.readScreens()
        return (screens, reader.configurationSerial)
    }

    /// The configuration serial now, alone: the resources' list (one round trip). 0 when the server does
    /// not answer.
    package static func configurationSerial(over c: XConnection) -> UInt32 {
        c.bounded { RandRBatch.monitors(c, withResources: true).list?.serial } ?? 0
    }
}
