internal import CXlib
import Foundation
import Multihead
@testable import MultiheadServerControl
@testable import MultiheadTesting
@testable import MultiheadX11
import Testing

/// Warm servers: a stopped server goes back to the pool reset to fresh, and the next start takes it.
/// Each test uses a framebuffer size of its own, so that no other test running beside it shares its pool.
@MainActor
@Suite("Warm servers reset to fresh", .timeLimit(.minutes(3)))
struct ServerPoolTests {
    /// What a client of the next test would find, read with Xlib as any client reads it.
    struct Seen: Equatable {
        var topLevelWindows: Int
        var hasDirtProperty: Bool
        var buttonsHeld: UInt32
        var keysHeld: Int
        var lockedModifiers: UInt8
        var focusIsPointerRoot: Bool
        var keysymOfA: UInt
        var monitors: [String]
        var primaryOutput: String?
        var modeCount: Int
        var hasResourceDatabase: Bool
        /// The gamma ramps of every lit CRTC.
        var gamma: [[UInt16]]
    }

    static func look(_ server: VirtualServer) throws -> Seen {
        let c = try server.controlConnection()
        let x = c.connection
        let d = x.display
        let root = CXlib.Window(x.root)
        var rootReturn: CXlib.Window = 0, child: CXlib.Window = 0
        var px: Int32 = 0, py: Int32 = 0, wx: Int32 = 0, wy: Int32 = 0, mask: UInt32 = 0
        XQueryPointer(d, root, &rootReturn, &child, &px, &py, &wx, &wy, &mask)
        var keys = [CChar](repeating: 0, count: 32)
        XQueryKeymap(d, &keys)
        var xkb = XkbStateRec()
        XkbGetState(d, UInt32(XkbUseCoreKbd), &xkb)
        var focus: CXlib.Window = 0, revert: Int32 = 0
        XGetInputFocus(d, &focus, &revert)
        let state = try c.readState()
        return Seen(topLevelWindows: try c.topLevelWindowCount(), hasDirtProperty: c.hasRootProperty("_TEST_DIRT"),
                    buttonsHeld: mask & 0x1F00, keysHeld: keys.reduce(0) { $0 + $1.nonzeroBitCount },
                    lockedModifiers: xkb.locked_mods, focusIsPointerRoot: focus == PointerRoot,
                    keysymOfA: Self.firstKeysym(d, keycode: Self.keycodeOfA),
                    monitors: ServerControl.liveMonitors(state).map(\.name).sorted(),
                    primaryOutput: c.primaryOutputName(), modeCount: state.resources.modes.entries.count,
                    hasResourceDatabase: c.hasRootProperty("RESOURCE_MANAGER"),
                    gamma: state.resources.crtcs.entries.filter { $0.value.mode != 0 }.sorted { $0.id < $1.id }
                        .map { Self.gamma(d, crtc: $0.id) })
    }

    /// A CRTC's gamma ramps read with Xlib, not through the kit's reader. `XRRGetCrtcGamma`.
    static func gamma(_ d: OpaquePointer, crtc: UInt) -> [UInt16] {
        guard let g = XRRGetCrtcGamma(d, RRCrtc(crtc)) else { return [] }
        defer { XRRFreeGamma(g) }
        let n = Int(g.pointee.size)
        guard n > 0, let r = g.pointee.red, let gr = g.pointee.green, let b = g.pointee.blue else { return [] }
        return Array(UnsafeBufferPointer(start: r, count: n)) + Array(UnsafeBufferPointer(start: gr, count: n))
            + Array(UnsafeBufferPointer(start: b, count: n))
    }

    /// The keycode that has "a" on a fresh server (38 on Xvfb's and Xorg's default keymap).
    static let keycodeOfA: Int32 = 38

    /// A keycode's first keysym as the server has it now (not Xlib's cached copy). `XGetKeyboardMapping`.
    static func firstKeysym(_ d: OpaquePointer, keycode: Int32) -> UInt {
        var per: Int32 = 0
        guard let syms = XGetKeyboardMapping(d, KeyCode(keycode), 1, &per) else { return 0 }
        defer { XFree(syms) }
        return per > 0 ? UInt(syms[0]) : 0
    }

    /// A client as a careless test leaves one: a window kept after it closes (`RetainPermanent`) holding
    /// the focus, a root property, a key and a button held, Caps Lock on.
    static func makeDirt(_ server: VirtualServer) throws {
        let d = try #require(XOpenDisplay(server.display))
        let root = mh_default_root_window(d)
        let w = XCreateSimpleWindow(d, root, 10, 10, 100, 100, 0, 0, 0)
        XMapWindow(d, w)
        XSync(d, 0)
        XSetInputFocus(d, w, Int32(RevertToNone), Time(CurrentTime))
        let atom = XInternAtom(d, "_TEST_DIRT", 0)
        var value: CLong = 7
        _ = withUnsafeBytes(of: &value) { XChangeProperty(d, root, atom, XA_CARDINAL, 32, PropModeReplace, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), 1) }
        XTestFakeMotionEvent(d, -1, 50, 50, 0)
        XTestFakeButtonEvent(d, 1, 1, 0)
        XTestFakeKeyEvent(d, UInt32(XKeysymToKeycode(d, KeySym(XK_z))), 1, 0)
        let caps = UInt32(XKeysymToKeycode(d, KeySym(XK_Caps_Lock)))
        XTestFakeKeyEvent(d, caps, 1, 0)
        XTestFakeKeyEvent(d, caps, 0, 0)
        XSetCloseDownMode(d, RetainPermanent)
        XSync(d, 0)
        XCloseDisplay(d)
    }

    @Test("a test that leaves dirt is followed by one that sees a fresh server", arguments: [VirtualServer.Kind.xvfb, .xorgDummy, .xorg])
    func dirtIsGone(kind: VirtualServer.Kind) async throws {
        let fb = Size(width: 7680, height: 4320 + (kind == .xvfb ? 11 : kind == .xorgDummy ? 12 : 17))
        // The layout's output and another one, on each Xorg.
        let (main, other) = kind == .xorg ? ("DP-1", "HDMI-5") : ("DUMMY0", "DUMMY5")
        let layout: [VirtualServer.Monitor] = kind == .xvfb
            ? [.init("MAIN", "1280x720+0+0", primary: true)] : [.init(main, "1280x720+0+0", primary: true)]
        let first = try await VirtualServer.start(kind, monitors: layout, framebuffer: fb)
        let fresh = try Self.look(first)
        #expect(fresh.topLevelWindows == 0 && !fresh.hasDirtProperty && fresh.buttonsHeld == 0 && fresh.keysHeld == 0)
        #expect(fresh.lockedModifiers == 0 && fresh.keysymOfA == UInt(XK_a))
        try Self.makeDirt(first)
        try first.plug("EXTRA", "800x600+1280+0", primary: true)
        // Scale 2 for every client that reads the resource database.
        try await first.mergeResources(["Xft.dpi": "192"])
        if kind != .xvfb {
            try first.setOutputMode(main, width: 1234, height: 567)
            _ = try await first.xrandr(["--output", other, "--primary"])
            _ = try await first.xrandr(["--output", main, "--gamma", "0.5:0.5:0.5"])
        }
        let dirty = try Self.look(first)
        #expect(dirty.hasResourceDatabase && !fresh.hasResourceDatabase)
        if kind != .xvfb { #expect(dirty.primaryOutput == other && dirty.gamma != fresh.gamma) }
        #expect(dirty.topLevelWindows == 1 && dirty.hasDirtProperty && dirty.buttonsHeld != 0 && dirty.keysHeld > 0)
        #expect(dirty.lockedModifiers != 0 && !dirty.focusIsPointerRoot)
        #expect(Set(dirty.monitors) == ["EXTRA", layout[0].name] && (kind == .xvfb || dirty.modeCount == fresh.modeCount + 1))
        let display = first.display
        first.stop()

        let second = try await VirtualServer.start(kind, monitors: layout, framebuffer: fb)
        defer { second.stop() }
        #expect(second.isWarm && second.display == display, "the last reset refused left: \(ServerPool.shared.lastRefusal)")
        #expect(try Self.look(second) == fresh)
    }

    @Test("clients of a lease are closed at stop(), and its cookie no longer opens the server")
    func leaseCookieRevoked() async throws {
        let fb = Size(width: 7680, height: 4320 + 13)
        let first = try await VirtualServer.start(framebuffer: fb)
        let app = try first.makeApplication()
        let client = try ServerControl(display: first.display)
        let cookie = XauthFile.cookie(display: String(first.display.dropFirst()))
        first.stop()
        // The server closed the lease's connections: the next request finds the connection gone.
        #expect(throws: (any Error).self) { try client.topLevelWindowCount() }
        let second = try await VirtualServer.start(framebuffer: fb)
        defer { second.stop() }
        #expect(second.isWarm && second.display == first.display)
        let newCookie = XauthFile.cookie(display: String(second.display.dropFirst()))
        #expect(cookie != nil && newCookie != nil && cookie != newCookie)
        _ = app
    }

    @Test("making room: the pool ends a spare of the kind it holds most of, else the server idle longest once it has been spared")
    func victim() {
        func entry(_ display: String, _ height: Double, since: Double) -> ServerPool.Entry {
            ServerPool.Entry(display: display, key: ServerPool.Key(kind: .xvfb, framebuffer: Size(width: 7680, height: height), depth: 24,
                                                                   glx: false, serverArguments: []), since: since)
        }
        #expect(ServerPool.victim([], now: 100, spareFor: 0) == nil)
        let lone = [entry(":1", 1, since: 10), entry(":2", 2, since: 20), entry(":3", 3, since: 30)]
        #expect(ServerPool.victim(lone, now: 100, spareFor: 0) == ":1")
        #expect(ServerPool.victim(lone, now: 100, spareFor: 90) == ":1")
        #expect(ServerPool.victim(lone, now: 100, spareFor: 91) == nil)
        #expect(ServerPool.victim([entry(":1", 1, since: 1), entry(":2", 2, since: 2), entry(":3", 2, since: 3), entry(":4", 3, since: 4)],
                                  now: 5, spareFor: 120) == ":2")
        #expect(ServerPool.victim([entry(":1", 1, since: 1), entry(":2", 2, since: 2), entry(":3", 1, since: 3), entry(":4", 2, since: 4)],
                                  now: 5, spareFor: 120) == ":1")
    }

    @Test("a pool is an instance with its own bounds: with room for one idle server, the last handed back ends the one idle before it, and the next start takes it")
    func poolOfItsOwn() async throws {
        let pool = ServerPool(idleLimit: 1, spareFor: 0)
        #expect(pool !== ServerPool.shared && pool.idleLimit == 1 && pool.spareFor == 0)
        let layout = [VirtualServer.Monitor("MAIN", "640x480+0+0", primary: true)]
        let first = try await VirtualServer.start(.xvfb, monitors: layout, framebuffer: Size(width: 7680, height: 4320 + 31), glx: false, pool: pool)
        let second = try await VirtualServer.start(.xvfb, monitors: layout, framebuffer: Size(width: 7680, height: 4320 + 32), glx: false, pool: pool)
        first.stop()
        #expect(first.wasPooled && pool.idleCount == 1, "\(pool.lastRefusal)")
        let ended = first.pid
        second.stop()
        // Past its bound the pool made room: the first server, idle and spared for no time, was ended.
        #expect(second.wasPooled && pool.idleCount == 1, "\(pool.lastRefusal)")
        var polls = 0
        while kill(ended, 0) == 0 && polls < 100 {
            try await Task.sleep(for: .milliseconds(50))
            polls += 1
        }
        #expect(kill(ended, 0) != 0, "the server the pool made room by ending still runs")
        let again = try await VirtualServer.start(.xvfb, monitors: layout, framebuffer: Size(width: 7680, height: 4320 + 32), glx: false, pool: pool)
        #expect(again.isWarm && again.display == second.display && pool.idleCount == 0)
        again.end()
    }

    @Test("fresh: true is a new server that stop() ends")
    func freshIsPrivate() async throws {
        let fb = Size(width: 7680, height: 4320 + 14)
        let pooled = try await VirtualServer.start(framebuffer: fb)
        pooled.stop()
        let fresh = try await VirtualServer.start(framebuffer: fb, fresh: true)
        #expect(!fresh.isWarm && fresh.display != pooled.display)
        fresh.stop()
        #expect(kill(fresh.pid, 0) != 0)
        let warm = try await VirtualServer.start(framebuffer: fb)
        defer { warm.stop() }
        #expect(warm.isWarm)
    }

    @Test("a changed keymap: the next test finds the fresh keymap (the server is replaced when XKB's map cannot be set back)")
    func keymapIsFresh() async throws {
        let fb = Size(width: 7680, height: 4320 + 15)
        let first = try await VirtualServer.start(framebuffer: fb)
        let d = try #require(XOpenDisplay(first.display))
        var b = KeySym(XK_b)
        XChangeKeyboardMapping(d, Self.keycodeOfA, 1, &b, 1)
        XSync(d, 0)
        #expect(Self.firstKeysym(d, keycode: Self.keycodeOfA) == UInt(XK_b))
        XCloseDisplay(d)
        first.stop()
        let second = try await VirtualServer.start(framebuffer: fb)
        defer { second.stop() }
        #expect(try Self.look(second).keysymOfA == UInt(XK_a))
    }

    @Test("Xorg+dummy: an output the dummy driver gave modes when plugged cannot be set back, so the next test gets a new server, fresh")
    func dummyOutputModesReplaceTheServer() async throws {
        let fb = Size(width: 7680, height: 4320 + 16)
        let layout = [VirtualServer.Monitor("DUMMY0", "1280x720+0+0", primary: true)]
        let first = try await VirtualServer.start(.xorgDummy, monitors: layout, framebuffer: fb)
        let fresh = try Self.look(first)
        try first.plug("DUMMY2", "800x600+1280+0", primary: true)
        try first.unplug("DUMMY2")
        first.stop()
        let second = try await VirtualServer.start(.xorgDummy, monitors: layout, framebuffer: fb)
        defer { second.stop() }
        #expect(!second.isWarm)
        #expect(try Self.look(second) == fresh)
    }
}
