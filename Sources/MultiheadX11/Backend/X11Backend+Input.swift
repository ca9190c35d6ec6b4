internal import CXlib
import Multihead

extension X11Backend {
    /// Turns X input on our windows into the model's events: a button press, motion with a button down,
    /// and the release are a touch; keys go to the model, which routes them to the key window.
    func handleWindowEvent(_ e: inout XEvent) {
        guard let presenter else { return }
        switch e.type {
        case ButtonPress, ButtonRelease:
            let b = e.xbutton
            // Buttons 4–7 are the scroll wheel.
            guard b.button >= 1, b.button <= 3, let w = presenter.window(forXID: UInt(b.window)) else { return }
            let kind: Event.Kind = e.type == ButtonPress ? .pointerDown : .pointerUp
            // The pixel's centre: the view that painted the pixel is the view that gets it (`PixelCentre`).
            let at = Point(x: PixelCentre.of(Int(b.x_root)), y: PixelCentre.of(Int(b.y_root)))
            input?.send(.pointer(kind, at: at, screenName: w.screen.name,
                                 pointerID: Int(b.button), timestamp: Double(b.time) / 1000))
        case MotionNotify:
            let m = e.xmotion
            guard let w = presenter.window(forXID: UInt(m.window)) else { return }
            let masks: [(UInt32, Int)] = [(UInt32(Button1Mask), 1), (UInt32(Button2Mask), 2), (UInt32(Button3Mask), 3)]
            for (mask, id) in masks where m.state & mask != 0 {
                input?.send(.pointer(.pointerMoved, at: Point(x: PixelCentre.of(Int(m.x_root)), y: PixelCentre.of(Int(m.y_root))),
                                     screenName: w.screen.name, pointerID: id, timestamp: Double(m.time) / 1000))
            }
        case KeyPress, KeyRelease:
            let (text, sym) = Self.lookUp(&e.xkey)
            // The key's own code, and what it types without modifiers: the keysym of a state with none.
            var bare = e.xkey
            bare.state = 0
            let (plain, plainSym) = Self.lookUp(&bare)
            let name = XKeysymToString(sym).map { String(cString: $0) } ?? ""
            let key = Key(keyCode: KeyMapping.usage(forKeysym: UInt32(truncatingIfNeeded: plainSym)), characters: text,
                          charactersIgnoringModifiers: plain, modifierFlags: KeyMapping.modifiers(state: e.xkey.state), name: name)
            input?.send(.key(e.type == KeyPress ? .keyDown : .keyUp, key, timestamp: Double(e.xkey.time) / 1000))
        case FocusIn, FocusOut:
            let f = e.xfocus
            // Grabs move the focus only for their duration; a pointer-root focus says nothing of ours.
            guard f.mode == NotifyNormal || f.mode == NotifyWhileGrabbed, f.detail != NotifyPointer,
                  presenter.window(forXID: UInt(f.window)) != nil else { return }
            if e.type == FocusIn { return input?.focusChanged(appHasFocus: true) ?? () }
            // Out of this window: still ours if it went to another of our windows (the server has moved it).
            guard let c = connection else { return }
            var focus: CXlib.Window = 0
            var revert: Int32 = 0
            c.bounded { _ = XGetInputFocus(c.display, &focus, &revert) }
            if presenter.window(forXID: UInt(focus)) == nil { input?.focusChanged(appHasFocus: false) }
        case Expose:
            let x = e.xexpose
            presenter.exposed(xid: UInt(x.window), area: PixelRect(x: Int(x.x), y: Int(x.y), width: Int(x.width), height: Int(x.height)))
        case DestroyNotify:
            // Destroyed by someone else (ours are forgotten before we destroy them): show it again.
            if let w = presenter.lost(xid: UInt(e.xdestroywindow.window)) { input?.windowNeedsShowingAgain(w) }
        default:
            _ = presenter.handleCompletion(&e)
        }
    }

    /// The text a key event types and its keysym. `XLookupString`.
    private static func lookUp(_ event: inout XKeyEvent) -> (String, KeySym) {
        var buf = [CChar](repeating: 0, count: 32)
        var sym: KeySym = 0
        let n = XLookupString(&event, &buf, Int32(buf.count), &sym, nil)
        return (String(decoding: buf.prefix(Int(max(0, n))).map { UInt8(bitPattern: $0) }, as: UTF8.self), sym)
    }
}
