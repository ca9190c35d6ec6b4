internal import CXlib
import Glibc
import Multihead
import MultiheadProcess
import MultiheadX11

extension ServerControl {
    /// Puts a top-level window on a screen, as a person dragging it there would: at `frame` (in the
    /// screen's pixels, 0,0 its top-left corner), out of fullscreen or maximized first. With a window
    /// manager the move is asked of it (`_NET_WM_STATE`, `_NET_MOVERESIZE_WINDOW`, EWMH) and awaited on its
    /// events for at most `seconds`; without one the window is moved directly (`XMoveResizeWindow`).
    /// Answers the window as it is then: a window manager may keep a window from where it was asked to go
    /// (a minimum size, a strut).
    public func moveWindow(_ id: UInt, to screen: String, frame: Rect, within seconds: Double = 5) throws -> ServerWindow {
        try move(id, to: screen, origin: frame.origin, size: frame.size, within: seconds)
    }

    /// Puts a top-level window on a screen at `origin` (the screen's pixels; default its top-left corner)
    /// with the size it has once out of fullscreen or maximized (the size a window manager gives back).
    public func moveWindow(_ id: UInt, to screen: String, at origin: Point = Point(x: 0, y: 0), within seconds: Double = 5) throws -> ServerWindow {
        try move(id, to: screen, origin: origin, size: nil, within: seconds)
    }

    private func move(_ id: UInt, to screen: String, origin: Point, size: Size?, within seconds: Double) throws -> ServerWindow {
        let window = try window(id)
        let area = try screenFrame(screen)
        let local = Rect(origin: origin, size: size ?? window.frame.size)
        try Self.checkWindowFrame(local)
        let target = Rect(x: area.minX + local.minX, y: area.minY + local.minY, width: local.width, height: local.height)
        try Self.checkWindowFrame(target)
        return try place(window, at: target, on: screen, keepingSize: size == nil, fullscreen: false, within: seconds)
    }

    /// Makes a top-level window fill a screen: with a window manager, the window is moved onto the screen
    /// and its `_NET_WM_STATE_FULLSCREEN` asked for (a window manager fills the monitor the window is on),
    /// awaited for at most `seconds`; without one, it is given the screen's frame, raised, and marked
    /// fullscreen in `_NET_WM_STATE` as a window manager would mark it. Answers the window as it is then.
    public func fullscreenWindow(_ id: UInt, on screen: String, within seconds: Double = 5) throws -> ServerWindow {
        let window = try window(id)
        return try place(window, at: try screenFrame(screen), on: screen, keepingSize: false, fullscreen: true, within: seconds)
    }

    /// A window frame the X protocol can carry: finite, whole-number-sized 1…32767, positions within ±32767.
    static func checkWindowFrame(_ f: Rect) throws {
        let ok = [f.minX, f.minY, f.width, f.height].allSatisfy(\.isFinite)
            && f.width >= 1 && f.height >= 1 && f.width <= 32767 && f.height <= 32767
            && abs(f.minX) <= 32767 && abs(f.minY) <= 32767
        guard ok else {
            throw ServerControlError.invalidInput("a window frame of \(Self.number(f.width))×\(Self.number(f.height)) at (\(Self.number(f.minX)), \(Self.number(f.minY))): sizes are 1…32767 and positions within ±32767")
        }
    }

    /// A coordinate as a person wrote it: 5, not 5.0.
    private static func number(_ v: Double) -> String { v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }

    private func screenFrame(_ name: String) throws -> Rect {
        guard let s = try screens().first(where: { $0.name == name }) else { throw ScreenError.noSuchScreen(name.terminalEscaped) }
        return s.frame
    }

    /// `keepingSize`: the window's size once out of fullscreen or maximized (a window manager gives back
    /// the size it had before), not `asked`'s. `screen`: the screen `asked` lies on.
    private func place(_ window: ServerWindow, at asked: Rect, on screen: String, keepingSize: Bool, fullscreen: Bool,
                       within seconds: Double) throws -> ServerWindow {
        let c = connection
        let id = window.id
        guard hasWindowManager else {
            try c.trap("place window \(id)") {
                setStates(of: id, fullscreen: fullscreen)
                XMoveResizeWindow(c.display, CXlib.Window(id), Int32(asked.minX), Int32(asked.minY), UInt32(asked.width), UInt32(asked.height))
                if fullscreen { XRaiseWindow(c.display, CXlib.Window(id)) }
            }
            return try self.window(id)
        }
        // Events of the window and of the root's children (a window manager moves its frame, a root child)
        // end each wait below; selected before the first request, deselected after.
        try c.trap("select window events") {
            XSelectInput(c.display, CXlib.Window(id), StructureNotifyMask | PropertyChangeMask)
            XSelectInput(c.display, CXlib.Window(c.root), SubstructureNotifyMask)
        }
        defer {
            _ = try? c.forgivingErrors {
                XSelectInput(c.display, CXlib.Window(id), 0)
                XSelectInput(c.display, CXlib.Window(c.root), 0)
            }
            drainEvents()
        }
        let deadline = MonotonicClock.now() + seconds
        var current = window
        // Fullscreen there already: nothing to ask (leaving and entering again would resize the client twice).
        if fullscreen, window.state == .fullscreen, window.screen == screen, window.frame == asked { return window }
        // Minimized: shown again first, as a taskbar's click does (`_NET_ACTIVE_WINDOW`, source 2).
        if window.state == .minimized {
            sendWMMessage(id, "_NET_ACTIVE_WINDOW", [2, 0, 0, 0, 0])
            current = try awaitWindow(id, until: deadline) { $0.state != .minimized } ?? current
        }
        if current.state == .fullscreen || current.state == .maximized {
            askState(of: id, add: false, "_NET_WM_STATE_FULLSCREEN")
            askState(of: id, add: false, "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ")
            // Done when the state is gone and the size given back: openbox drops the state, then puts the
            // decorations back (a move), then resizes. A window whose size before was the screen's waits out
            // the bound.
            current = try awaitWindow(id, until: deadline) { w in
                w.state != .fullscreen && w.state != .maximized && w.frame.size != current.frame.size
            } ?? self.window(id)
        }
        // Fullscreen: onto the screen first, no larger than it (a window manager fills the monitor the
        // window is mostly on), then the state.
        var target = asked
        if fullscreen {
            target.size = Size(width: min(current.frame.width, asked.width), height: min(current.frame.height, asked.height))
        } else if keepingSize {
            target.size = current.frame.size
        }
        // StaticGravity: the position is the client window's own, not its frame's.
        let flags = Int(StaticGravity) | 1 << 8 | 1 << 9 | 1 << 10 | 1 << 11 | 2 << 12
        sendWMMessage(id, "_NET_MOVERESIZE_WINDOW", [flags, Int(target.minX), Int(target.minY), Int(target.width), Int(target.height)])
        if fullscreen {
            _ = try awaitWindow(id, until: deadline) { $0.screen == screen }
            askState(of: id, add: true, "_NET_WM_STATE_FULLSCREEN")
            target = asked
        }
        let done = try awaitWindow(id, until: deadline) { w in
            w.frame == target && (fullscreen ? w.state == .fullscreen : w.state != .fullscreen && w.state != .maximized)
        }
        return try done ?? self.window(id)
    }

    /// Reads the window after each event until `check` holds (the window then) or `deadline` passes (nil).
    private func awaitWindow(_ id: UInt, until deadline: Double, _ check: (ServerWindow) -> Bool) throws -> ServerWindow? {
        while true {
            let now = try window(id)
            if check(now) { return now }
            guard waitForEvent(until: deadline) else { return nil }
            drainEvents()
        }
    }

    /// Asks the window manager to add or remove states (`_NET_WM_STATE`, source 2: a pager, as a tool is).
    private func askState(of id: UInt, add: Bool, _ first: String, _ second: String? = nil) {
        let a = Int(atom(first, create: true)), b = second.map { Int(atom($0, create: true)) } ?? 0
        sendWMMessage(id, "_NET_WM_STATE", [add ? 1 : 0, a, b, 2, 0])
    }

    /// A client message to the root, as EWMH has tools ask a window manager. `XSendEvent`.
    private func sendWMMessage(_ id: UInt, _ type: String, _ data: [Int]) {
        let c = connection
        var e = XEvent()
        e.xclient.type = ClientMessage
        e.xclient.window = CXlib.Window(id)
        e.xclient.message_type = Atom(atom(type, create: true))
        e.xclient.format = 32
        let l = data + Array(repeating: 0, count: max(0, 5 - data.count))
        e.xclient.data.l = (l[0], l[1], l[2], l[3], l[4])
        XSendEvent(c.display, CXlib.Window(c.root), 0, SubstructureRedirectMask | SubstructureNotifyMask, &e)
        XFlush(c.display)
    }

    /// Without a window manager, the window's `_NET_WM_STATE` as one would leave it: fullscreen or not,
    /// never maximized (the move gives it another size), its other states kept.
    private func setStates(of id: UInt, fullscreen: Bool) {
        let c = connection
        let full = atom("_NET_WM_STATE_FULLSCREEN", create: true)
        let dropped: Set<UInt> = [full, atom("_NET_WM_STATE_MAXIMIZED_VERT", create: true), atom("_NET_WM_STATE_MAXIMIZED_HORZ", create: true)]
        var states = longs(id, "_NET_WM_STATE").filter { !dropped.contains($0) }
        if fullscreen { states.append(full) }
        let property = Atom(atom("_NET_WM_STATE", create: true))
        states.withUnsafeBufferPointer { items in
            _ = items.withMemoryRebound(to: UInt8.self) { raw in
                XChangeProperty(c.display, CXlib.Window(id), property, XA_ATOM, 32, PropModeReplace, raw.baseAddress, Int32(states.count))
            }
        }
    }
}

extension ServerControl {
    /// Moves windows that were on a monitor now gone (which had frame `gone`) onto the main screen that
    /// remains (the primary, else the first), at the same place relative to its top-left corner, kept
    /// inside it where they fit: what a desktop does with the windows of an unplugged monitor. Windows
    /// already gone are skipped.
    /// A fullscreen window is made fullscreen on the main screen; a maximized one leaves that state with
    /// the size its window manager gives back. Each window has its share of `seconds`; one that went away
    /// meanwhile, or cannot be placed, is left as it is (the unplug itself has happened).
    package func rehome(_ windows: [ServerWindow], from gone: Rect, within seconds: Double) throws {
        guard !windows.isEmpty else { return }
        let remaining = try screens()
        guard let main = remaining.first(where: \.isPrimary) ?? remaining.first else { return }
        let share = max(0.2, seconds / Double(windows.count))
        for w in windows {
            if w.state == .fullscreen {
                _ = try? fullscreenWindow(w.id, on: main.name, within: share)
                continue
            }
            let x = min(max(0, w.frame.minX - gone.minX), max(0, main.frame.width - w.frame.width))
            let y = min(max(0, w.frame.minY - gone.minY), max(0, main.frame.height - w.frame.height))
            _ = try? moveWindow(w.id, to: main.name, at: Point(x: x, y: y), within: share)
        }
    }
}
