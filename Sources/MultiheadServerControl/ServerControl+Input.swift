internal import CXlib
import Multihead
import MultiheadX11

extension ServerControl {
    /// A screen's pixels as the server shows them (`XGetImage` over the monitor's rectangle).
    public func screenshot(of screenName: String) throws -> Bitmap {
        if let frame = monitorFrame(named: screenName) { return try Screenshot.capture(connection, frame) }
        try connection.checkAlive()
        throw ScreenError.noSuchScreen(screenName)
    }

    /// The root window's pixels over a desktop rectangle.
    public func screenshot(of rect: Rect) throws -> Bitmap { try Screenshot.capture(connection, rect) }

    /// One pixel of a screen as 0xRRGGBB, at a point in the screen's own pixels: a read of that pixel
    /// alone, not of the whole screen. A point outside the screen is `invalidInput`. `XGetImage`.
    public func pixel(x: Int, y: Int, on screenName: String) throws -> UInt32 {
        guard let frame = monitorFrame(named: screenName) else {
            try connection.checkAlive()
            throw ScreenError.noSuchScreen(screenName)
        }
        guard x >= 0, y >= 0, Double(x) < frame.width, Double(y) < frame.height else {
            throw ServerControlError.invalidInput("pixel (\(x), \(y)) outside \(screenName.terminalEscaped) (\(Int(frame.width))×\(Int(frame.height)))")
        }
        let bitmap = try Screenshot.capture(connection, Rect(x: frame.minX + Double(x), y: frame.minY + Double(y), width: 1, height: 1))
        guard let value = bitmap.pixel(x: 0, y: 0) else { throw ServerControlError.invalidInput("pixel (\(x), \(y)) outside the framebuffer") }
        return value
    }

    /// How many top-level windows the server has, mapped or not.
    public func topLevelWindowCount() throws -> Int { try topLevelWindows().count }

    /// The root's children, bottom to top. `XQueryTree`.
    func topLevelWindows() throws -> [CXlib.Window] {
        let c = connection
        try c.checkAlive()
        var root: CXlib.Window = 0, parent: CXlib.Window = 0, count: UInt32 = 0
        var children: UnsafeMutablePointer<CXlib.Window>?
        let ok = c.bounded { XQueryTree(c.display, CXlib.Window(c.root), &root, &parent, &children, &count) }
        try c.checkAlive()
        guard ok != 0 else {
            throw X11Error.refused(display: c.name, request: "QueryTree", status: 0)
        }
        defer { if let children { XFree(children) } }
        return (0..<Int(count)).compactMap { children?[$0] }
    }

    /// Clicks at a desktop point: move, press, release (XTest).
    public func tap(at p: Point, button: Int = 1) throws {
        try move(to: p)
        try fakeButton(button, down: true)
        try fakeButton(button, down: false)
    }

    /// Moves to a desktop point and presses a button without releasing it (XTest): a touch in progress.
    public func pointerDown(at p: Point, button: Int = 1) throws {
        try move(to: p)
        try fakeButton(button, down: true)
    }

    /// Releases a button where the pointer is (XTest).
    public func pointerUp(button: Int = 1) throws {
        try fakeButton(button, down: false)
    }

    /// Presses at one point, moves through the path, releases at its end (XTest).
    public func drag(from start: Point, through path: [Point], button: Int = 1) throws {
        try move(to: start)
        try fakeButton(button, down: true)
        for p in path { try move(to: p) }
        try fakeButton(button, down: false)
    }

    /// Types text key by key (XTest); characters without a key on the server's keymap are refused.
    public func type(_ text: String) throws {
        for ch in text {
            let name = ch == "\u{1b}" ? "Escape" : ch == "\n" ? "Return" : ch == " " ? "space" : String(ch)
            try press(keysymNamed: name, shifted: ch.isUppercase)
        }
    }

    /// Presses and releases the key of a keysym name ("Escape", "q", "Return").
    public func press(keysymNamed name: String, shifted: Bool = false) throws {
        let c = connection
        try c.checkAlive()
        let sym = XStringToKeysym(name)
        let code = XKeysymToKeycode(c.display, sym)
        guard sym != 0, code != 0 else { throw ServerControlError.invalidInput("no key for \"\(name)\"") }
        let shift = XKeysymToKeycode(c.display, KeySym(XK_Shift_L))
        try c.trap("XTestFakeKeyEvent \(name)") {
            if shifted { XTestFakeKeyEvent(c.display, UInt32(shift), 1, 0) }
            XTestFakeKeyEvent(c.display, UInt32(code), 1, 0)
            XTestFakeKeyEvent(c.display, UInt32(code), 0, 0)
            if shifted { XTestFakeKeyEvent(c.display, UInt32(shift), 0, 0) }
        }
    }

    /// Presses and releases a key by its position (XTest), with modifier keys held around it: what a
    /// person types. A key the server's keymap lacks is refused.
    public func press(_ key: KeyboardHIDUsage, modifiers: KeyModifierFlags = []) throws {
        let c = connection
        try c.checkAlive()
        guard let sym = KeyMapping.keysym(for: key) else { throw ServerControlError.invalidInput("no key for HID usage \(key)") }
        let code = XKeysymToKeycode(c.display, KeySym(sym))
        guard code != 0 else { throw ServerControlError.invalidInput("the server's keymap has no key for HID usage \(key)") }
        let held: [(KeyModifierFlags, UInt32)] = [(.shift, 0xFFE1), (.control, 0xFFE3), (.alternate, 0xFFE9), (.command, 0xFFEB)]
        let mods = held.filter { modifiers.contains($0.0) }.map { UInt32(XKeysymToKeycode(c.display, KeySym($0.1))) }.filter { $0 != 0 }
        try c.trap("XTestFakeKeyEvent \(key)") {
            for m in mods { XTestFakeKeyEvent(c.display, m, 1, 0) }
            XTestFakeKeyEvent(c.display, UInt32(code), 1, 0)
            XTestFakeKeyEvent(c.display, UInt32(code), 0, 0)
            for m in mods.reversed() { XTestFakeKeyEvent(c.display, m, 0, 0) }
        }
    }

    private func move(to p: Point) throws {
        guard p.isFinite else { throw ServerControlError.invalidInput("point \(p)") }
        let c = connection
        try c.trap("XTestFakeMotionEvent") { XTestFakeMotionEvent(c.display, -1, Int32(p.x.rounded()), Int32(p.y.rounded()), 0) }
    }

    private func fakeButton(_ button: Int, down: Bool) throws {
        let c = connection
        try c.trap("XTestFakeButtonEvent") { XTestFakeButtonEvent(c.display, UInt32(button), down ? 1 : 0, 0) }
    }
}

extension ServerControl {
    /// Destroys a window of any client, as a misbehaving client or a window manager might (`XDestroyWindow`).
    public func destroyWindow(_ xid: UInt) throws {
        let c = connection
        try c.trap("DestroyWindow") { XDestroyWindow(c.display, CXlib.Window(xid)) }
    }

    /// A window's size as the server has it (`XGetWindowAttributes`).
    public func windowSize(_ xid: UInt) throws -> Size {
        let c = connection
        var attrs = XWindowAttributes()
        let ok = try c.trap("GetWindowAttributes") { XGetWindowAttributes(c.display, CXlib.Window(xid), &attrs) }
        guard ok != 0 else { throw X11Error.refused(display: c.name, request: "GetWindowAttributes", status: 0) }
        return Size(width: Double(attrs.width), height: Double(attrs.height))
    }
}

extension ServerControl {
    /// The mapped top-level windows, bottom to top, as the server stacks them (`XQueryTree`).
    public func mappedStackingOrder() throws -> [UInt] {
        try mappedTopLevels { _ in true }
    }

    /// The mapped override-redirect windows that are children of the root, bottom to top: windows no window
    /// manager reparented into a frame.
    public func mappedOverrideRedirectWindows() throws -> [UInt] {
        try mappedTopLevels { $0.override_redirect != 0 }
    }

    private func mappedTopLevels(where keep: (XWindowAttributes) -> Bool) throws -> [UInt] {
        let c = connection
        let windows = try topLevelWindows()
        let mapped = c.bounded {
            windows.compactMap { w -> UInt? in
                var attrs = XWindowAttributes()
                return XGetWindowAttributes(c.display, w, &attrs) != 0 && attrs.map_state == IsViewable && keep(attrs) ? UInt(w) : nil
            }
        }
        try c.checkAlive()
        return mapped
    }

    /// Makes and maps a plain window of this client, as another application would show one
    /// (`XCreateSimpleWindow`, `XMapWindow`); returns its id.
    public func createWindow(_ frame: Rect) throws -> UInt {
        guard frame.isFinite, frame.width >= 1, frame.height >= 1 else {
            throw X11Error.refused(display: connection.name, request: "CreateWindow (frame \(frame))", status: 0)
        }
        let c = connection
        return try c.trap("CreateWindow") {
            let xid = XCreateSimpleWindow(c.display, CXlib.Window(c.root), Int32(frame.minX), Int32(frame.minY),
                                          UInt32(frame.width), UInt32(frame.height), 0, 0, 0)
            XMapWindow(c.display, xid)
            return UInt(xid)
        }
    }

    /// Gives the keyboard focus to a window of any client, as a window manager does (`XSetInputFocus`).
    public func setInputFocus(_ xid: UInt) throws {
        let c = connection
        try c.trap("SetInputFocus") { XSetInputFocus(c.display, CXlib.Window(xid), RevertToParent, Time(CurrentTime)) }
    }

    /// The window that has the keyboard focus (`XGetInputFocus`).
    public func inputFocus() throws -> UInt {
        let c = connection
        try c.checkAlive()
        var focus: CXlib.Window = 0
        var revert: Int32 = 0
        c.bounded { _ = XGetInputFocus(c.display, &focus, &revert) }
        try c.checkAlive()
        return UInt(focus)
    }
}
