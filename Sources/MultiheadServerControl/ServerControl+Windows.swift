internal import CXlib
import Multihead
import MultiheadProcess
import MultiheadX11

extension ServerControl {
    /// Every top-level window, front first: the window manager's clients (`_NET_CLIENT_LIST_STACKING`,
    /// minimized ones included) when one runs, else the root window's mapped children (override-redirect
    /// ones included: without a window manager every window is placed by its client). Read under a
    /// server grab, so that no window goes or moves halfway through. `XQueryTree`, `XGetWindowAttributes`,
    /// `XTranslateCoordinates`, `XGetWindowProperty`.
    public func windows() throws -> [ServerWindow] {
        let screens = try self.screens().map { (name: $0.name, frame: $0.frame) }
        let c = connection
        return try c.grabbed {
            try c.forgivingErrors {
                let managed = hasWindowManager
                let ids = managed ? clientList() : mappedChildren()
                return ids.reversed().compactMap { describe($0, managed: managed, screens: screens) }
            }
        }
    }

    /// One window by its ID, as `windows()` has it; `ServerControlError.noSuchWindow` when it is not a
    /// top-level window of the list.
    public func window(_ id: UInt) throws -> ServerWindow {
        guard let w = try windows().first(where: { $0.id == id }) else {
            throw ServerControlError.noSuchWindow("no top-level window \(id); `multihead windows` lists them")
        }
        return w
    }

    /// The window manager's clients, bottom first.
    private func clientList() -> [UInt] {
        let root = connection.root
        let stacking = longs(root, "_NET_CLIENT_LIST_STACKING")
        return stacking.isEmpty ? longs(root, "_NET_CLIENT_LIST") : stacking
    }

    /// The root's viewable InputOutput children, bottom first.
    private func mappedChildren() -> [UInt] {
        let c = connection
        var root: CXlib.Window = 0, parent: CXlib.Window = 0, count: UInt32 = 0
        var children: UnsafeMutablePointer<CXlib.Window>?
        guard XQueryTree(c.display, CXlib.Window(c.root), &root, &parent, &children, &count) != 0, let children else { return [] }
        defer { XFree(children) }
        return (0..<Int(count)).map { UInt(children[$0]) }.filter { id in
            var a = XWindowAttributes()
            guard XGetWindowAttributes(c.display, CXlib.Window(id), &a) != 0 else { return false }
            return a.map_state == IsViewable && a.`class` == InputOutput
        }
    }

    /// A window's facts; nil when it is gone (a client list may name a window already destroyed).
    private func describe(_ id: UInt, managed: Bool, screens: [(name: String, frame: Rect)]) -> ServerWindow? {
        let c = connection
        var a = XWindowAttributes()
        guard XGetWindowAttributes(c.display, CXlib.Window(id), &a) != 0 else { return nil }
        var x: Int32 = 0, y: Int32 = 0, child: CXlib.Window = 0
        guard XTranslateCoordinates(c.display, CXlib.Window(id), CXlib.Window(c.root), 0, 0, &x, &y, &child) != 0 else { return nil }
        let frame = Rect(x: Double(x), y: Double(y), width: Double(a.width), height: Double(a.height))
        let title = text(id, "_NET_WM_NAME") ?? text(id, "WM_NAME") ?? ""
        // WM_CLASS is "instance\0class\0": the class names the application.
        let classParts = bytes(id, "WM_CLASS").split(separator: 0, omittingEmptySubsequences: false)
        let appID = classParts.count > 1 ? String(decoding: classParts[1], as: UTF8.self) : ""
        let pid = longs(id, "_NET_WM_PID").first.flatMap { $0 > 0 && $0 <= UInt(Int32.max) ? Int32($0) : nil }
        return ServerWindow(id: id, title: title, appID: appID, pid: pid, frame: frame,
                            screen: ServerWindow.screen(of: frame, among: screens),
                            state: state(id, viewable: a.map_state == IsViewable))
    }

    /// `_NET_WM_STATE` read as one state (fullscreen before maximized); a window a window manager keeps
    /// unmapped, or marks hidden or iconic (`WM_STATE` 3), is minimized.
    private func state(_ id: UInt, viewable: Bool) -> ServerWindow.State {
        let states = Set(longs(id, "_NET_WM_STATE"))
        let has = { (name: String) in states.contains(self.atom(name, create: false)) && self.atom(name, create: false) != 0 }
        if has("_NET_WM_STATE_HIDDEN") || longs(id, "WM_STATE").first == UInt(IconicState) || !viewable { return .minimized }
        if has("_NET_WM_STATE_FULLSCREEN") { return .fullscreen }
        if has("_NET_WM_STATE_MAXIMIZED_VERT") && has("_NET_WM_STATE_MAXIMIZED_HORZ") { return .maximized }
        return .normal
    }

    /// A format-8 property's bytes (empty when absent or of another format).
    private func bytes(_ id: UInt, _ name: String) -> [UInt8] {
        withProperty(id, name) { _, format, count, data in
            format == 8 ? Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: count)) : []
        } ?? []
    }

    /// A format-32 property's items (ATOM, WINDOW, CARDINAL; empty when absent): Xlib gives each as a C long.
    func longs(_ id: UInt, _ name: String) -> [UInt] {
        withProperty(id, name) { _, format, count, data in
            format == 32 ? Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt.self), count: count)) : []
        } ?? []
    }

    /// A text property: UTF8_STRING as UTF-8, STRING as Latin-1 (ICCCM); nil when absent or of another type.
    private func text(_ id: UInt, _ name: String) -> String? {
        let utf8 = atom("UTF8_STRING", create: false)
        return withProperty(id, name) { type, format, count, data -> String? in
            guard format == 8 else { return nil }
            let raw = UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: count)
            if type == utf8, utf8 != 0 { return String(decoding: raw, as: UTF8.self) }
            if type == UInt(XA_STRING) { return String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) })) }
            return nil
        } ?? nil
    }

    /// Reads a property (at most 1 MiB of it) and hands `body` its type, format, item count and data, which
    /// live until `body` returns; nil when the property is absent. `XGetWindowProperty`.
    private func withProperty<T>(_ id: UInt, _ name: String, _ body: (UInt, Int32, Int, UnsafeRawPointer) -> T) -> T? {
        let c = connection
        let a = atom(name, create: false)
        guard a != 0 else { return nil }
        var type: Atom = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(c.display, CXlib.Window(id), Atom(a), 0, 1 << 18, 0, Atom(AnyPropertyType),
                                        &type, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, let data, type != 0 else { return nil }
        return body(UInt(type), format, Int(count), UnsafeRawPointer(data))
    }
}

extension ServerControl {
    /// Whether an EWMH window manager runs: the root's `_NET_SUPPORTING_WM_CHECK` names a window that
    /// exists and names itself there (a window manager that died leaves the root's property behind).
    public var hasWindowManager: Bool {
        let c = connection
        guard !c.isLost, let check = longs(c.root, "_NET_SUPPORTING_WM_CHECK").first, check != 0 else { return false }
        return (try? c.forgivingErrors { longs(check, "_NET_SUPPORTING_WM_CHECK").first == check }) ?? false
    }

    /// Waits until a window manager runs (`hasWindowManager`), on the root's PropertyNotify events; false
    /// when none does after `seconds`.
    public func waitForWindowManager(within seconds: Double) throws -> Bool {
        try waitOnRootProperties(within: seconds) { hasWindowManager }
    }

    /// Waits until the root window has a property of that name, on the root's PropertyNotify events; false
    /// when it still has none after `seconds`.
    public func waitForRootProperty(_ name: String, within seconds: Double) throws -> Bool {
        try waitOnRootProperties(within: seconds) { hasRootProperty(name) }
    }

    /// Checks `done` now and after each change of the root's properties until it holds or `seconds` pass.
    /// `XSelectInput`.
    private func waitOnRootProperties(within seconds: Double, _ done: () -> Bool) throws -> Bool {
        let c = connection
        let deadline = MonotonicClock.now() + seconds
        try c.trap("select root property events") { XSelectInput(c.display, CXlib.Window(c.root), PropertyChangeMask) }
        defer {
            // Deselected and answered: no event of the wait is left queued after the drain.
            XSelectInput(c.display, CXlib.Window(c.root), 0)
            c.sync()
            drainEvents()
        }
        while true {
            // Selected before the read: a property set after it sends an event, which ends the wait below.
            if done() { return true }
            guard waitForEvent(until: deadline) else { return false }
            drainEvents()
        }
    }
}
