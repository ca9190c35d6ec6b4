internal import CCairo
internal import CXlib
#if canImport(Glibc)
import Glibc
#endif
import Multihead

/// Shows the model's scene on X: one override-redirect window per visible `Window`, stacked as
/// `Application.windows`, its views drawn with cairo into a pixel buffer and put on the window.
@MainActor
package final class X11Presenter {
    /// One model window's X window and pixels.
    final class Entry {
        /// Not retained: a released window reads nil here, and the complete scene the model asks for then
        /// (it does not list the window) destroys the entry's X window.
        weak var window: Multihead.Window?
        /// The window's identity, the key of `entries`.
        let windowID: ObjectIdentifier
        let xid: UInt
        var geometry: WindowGeometry
        var mapped = false
        var buffer: PixelBuffer?
        /// The background pixel the server fills the window with, while its drawing is one opaque colour
        /// (then it has no buffer).
        var solid: UInt?
        var drawnBrightness: Double = 1
        init(window: Multihead.Window, xid: UInt, geometry: WindowGeometry) {
            self.window = window
            windowID = ObjectIdentifier(window)
            self.xid = xid
            self.geometry = geometry
        }
    }

    let connection: XConnection
    let useSharedMemory: Bool
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    /// How this server's windows take pixels; nil on a visual we cannot draw on (`unsupported` says why).
    private let format: PixelBuffer.Format?
    private let unsupported: X11Error?
    /// Where a failure that ends the presentation goes (the backend's input): reported once.
    var onFailure: ((X11Error) -> Void)?
    private var failureReported = false
    private let gc: GC
    /// One colormap for every window of this presenter (they share the visual), freed at teardown.
    private let colormap: Colormap
    private(set) var entries: [ObjectIdentifier: Entry] = [:]
    /// The entry a scene named last: an animation's frames name the same window each time, and finding it
    /// here hashes nothing. Cleared with its entry.
    private var lastEntry: Entry?
    private var byXID: [UInt: ObjectIdentifier] = [:]
    private var appliedOrder: [UInt] = []
    private var pendingFocus: ObjectIdentifier??
    /// What the server has not read yet of the shared buffers.
    private let fence: ShmFence
    /// The frames whose X errors are not claimed yet.
    private var ledger = FrameErrorLedger()
    /// What tests and benchmarks count.
    private(set) var counters = PresenterCounters()
    private var pushed = 0

    init(connection: XConnection, useSharedMemory: Bool) {
        self.connection = connection
        let d = connection.display
        let screen = mh_default_screen(d)
        var info = XVisualInfo()
        if XMatchVisualInfo(d, screen, 24, TrueColor, &info) != 0, let v = info.visual {
            (visual, depth, format, unsupported) = (v, 24, .rgb24, nil)
        } else if XMatchVisualInfo(d, screen, 16, TrueColor, &info) != 0, let v = info.visual,
                  info.red_mask == 0xF800, info.green_mask == 0x07E0, info.blue_mask == 0x001F {
            // A depth-16 server (Xvfb -screen 0 WxHx16): cairo draws 5-6-5 pixels the visual reads as they are.
            (visual, depth, format, unsupported) = (v, 16, .rgb565, nil)
        } else {
            visual = mh_default_visual(d, screen)
            depth = mh_default_depth(d, screen)
            format = nil
            unsupported = .unsupportedVisual(display: connection.name, depth: Int(depth),
                                             visualClass: Self.className(visual.pointee.`class`))
        }
        gc = XCreateGC(d, connection.root, 0, nil)
        colormap = XCreateColormap(d, connection.root, visual, AllocNone)
        var major: Int32 = 0, minor: Int32 = 0, pixmaps: Int32 = 0
        self.useSharedMemory = useSharedMemory && XShmQueryVersion(d, &major, &minor, &pixmaps) != 0
        fence = ShmFence(connection: connection, shared: self.useSharedMemory)
    }

    /// The IDs of the shared memory segments in use.
    var sharedSegmentIDs: [Int32] { entries.values.compactMap { $0.buffer?.segmentID } }

    /// The model window an X window shows, if it is ours.
    func window(forXID xid: UInt) -> Multihead.Window? {
        byXID[xid].flatMap { entries[$0]?.window }
    }

    /// The X window that shows a model window, if one was made.
    func xid(for window: Multihead.Window) -> UInt? { entries[ObjectIdentifier(window)]?.xid }

    /// Brings X in line with the scene: create, move, map, draw, unmap and destroy as needed, then one
    /// `XRestackWindows` when the order changed. The caller sends it (`X11Backend.present`).
    func present(_ scene: Scene) {
        guard !connection.isLost else { return }
        guard format != nil else {
            // Nothing drawn is better than black windows: the first window to show says why, once.
            if let unsupported, !scene.windows.isEmpty, !failureReported {
                failureReported = true
                onFailure?(unsupported)
            }
            return
        }
        let d = connection.display
        claimFrameErrors()
        let firstRequest = UInt(mh_next_request(d))
        var visible = Set<ObjectIdentifier>()
        var redrawn = 0
        pushed = 0
        // The order, for a complete scene only (a partial one makes no array).
        var topToBottom: [UInt] = []
        counters.lastSceneCount = scene.windows.count
        let items = scene.windows
        // By index, read in place: a copy of an item (what the reversed collection's iterator gives)
        // retains its window through the window's side table, and releases it.
        for index in items.indices.reversed() {
            let item = items[index]
            let id = ObjectIdentifier(item.window)
            // Only a complete scene says which windows are gone: a partial one makes no set.
            if scene.isComplete { visible.insert(id) }
            let g = geometry(item.frameOnDesktop), origin = g.origin(of: item.frameOnDesktop)
            var found = lastEntry?.windowID == id ? lastEntry : entries[id]
            // An entry left by a released window (the complete scene that ends it has not come yet), at the
            // address a new window now has: not this window's.
            if let stale = found, stale.window !== item.window {
                destroy(id, stale)
                found = nil
            }
            guard let entry = found ?? create(item.window, g) else { continue }
            lastEntry = entry
            // A new buffer, a new size or a new dimming: all of it; else only the damage.
            // (A move, by a fraction of a pixel too, damages the whole window.)
            var whole = (entry.buffer == nil && entry.solid == nil) || entry.drawnBrightness != item.softwareBrightness
            if entry.geometry != g {
                if entry.geometry.w != g.w || entry.geometry.h != g.h { dropBuffer(entry); whole = true }
                XMoveResizeWindow(d, Window(entry.xid), g.x, g.y, UInt32(g.w), UInt32(g.h))
                entry.geometry = g
            }
            var area: PixelRect?
            if !whole, let damage = item.damage { area = PixelRect(covering: damage, scale: item.scale, origin: origin) }
            if whole || area != nil, draw(entry, item, area: area, origin: origin) { redrawn += 1 }
            if !entry.mapped {
                XMapWindow(d, Window(entry.xid))
                entry.mapped = true
                // The first push: once, after the map.
                if let b = entry.buffer { pushed += fence.put(b, to: entry.xid, gc: gc) }
            }
            if scene.isComplete { topToBottom.append(entry.xid) }
        }
        // A partial scene lists only windows that changed: the others, and the order, stay as they are.
        guard scene.isComplete else { return endFrame(from: firstRequest, redrawn: redrawn) }
        // Hidden windows are unmapped; released ones go now.
        for (id, entry) in entries where !visible.contains(id) {
            if entry.window == nil {
                destroy(id, entry)
            } else if entry.mapped {
                XUnmapWindow(d, Window(entry.xid))
                entry.mapped = false
            }
        }
        if topToBottom != appliedOrder, !topToBottom.isEmpty {
            var order = topToBottom.map { Window($0) }
            XRestackWindows(d, &order, Int32(order.count))
        }
        appliedOrder = topToBottom
        endFrame(from: firstRequest, redrawn: redrawn)
    }

    private func endFrame(from firstRequest: UInt, redrawn: Int) {
        let d = connection.display
        applyPendingFocus()
        counters.frameEnded(redrawn: redrawn, pushed: pushed)
        // No round trip: the server's completion events say when it has read the shared pixels, and a
        // frame waits for them only if it draws into a buffer again before they came.
        let end = UInt(mh_next_request(d))
        if end > firstRequest { ledger.record(firstRequest..<end) }
    }

    /// Takes a completion event (MIT-SHM says the server has read a shared put); false for any other event.
    func handleCompletion(_ e: inout XEvent) -> Bool { fence.handleCompletion(&e) }

    /// Times a frame had to wait for the server to finish reading a buffer before drawing into it.
    var readWaits: Int { fence.waits }

    /// How many buffers the next `waitForReads` visits: those put since the last one.
    var buffersAwaitingRead: Int { fence.listedUnreadCount }

    /// Claims the X errors of frames the server has processed: an error of a drawing request is a
    /// failure the caller hears of, not a warning in a log (`FrameErrorLedger.isFatal`); the others go
    /// back for the backend's stray-error pass, which knows what to do with them. Called before each frame
    /// and before that pass.
    func claimFrameErrors() {
        guard !ledger.unchecked.isEmpty, !connection.isLost else { return }
        let processed = UInt(mh_last_known_request_processed(connection.display))
        let errors = ledger.claim(processed: processed, anyRecorded: XErrorTrap.anyRecorded.load(ordering: .relaxed)) {
            connection.takeErrors(from: $0, to: $1)
        }
        guard !errors.isEmpty else { return }
        connection.putBack(errors.filter { !FrameErrorLedger.isFatal($0) })
        guard let e = errors.first(where: FrameErrorLedger.isFatal), !failureReported else { return }
        failureReported = true
        onFailure?(.protocolError(display: connection.name, request: "drawing a window (\(e.request))", error: e.text, code: e.code))
    }

    /// Desktop rectangle → X geometry within this server's root (`WindowGeometry`).
    func geometry(_ r: Rect) -> WindowGeometry {
        let d = connection.display, s = mh_default_screen(d)
        return WindowGeometry(r, rootWidth: mh_display_width(d, s), rootHeight: mh_display_height(d, s))
    }

    private func create(_ w: Multihead.Window, _ g: WindowGeometry) -> Entry? {
        let d = connection.display
        var attrs = XSetWindowAttributes()
        attrs.override_redirect = 1
        attrs.background_pixmap = 0
        attrs.border_pixel = 0
        attrs.colormap = colormap
        attrs.event_mask = ExposureMask | ButtonPressMask | ButtonReleaseMask | PointerMotionMask
            | KeyPressMask | KeyReleaseMask | StructureNotifyMask | FocusChangeMask
        let mask = UInt(CWOverrideRedirect | CWBackPixmap | CWBorderPixel | CWColormap | CWEventMask)
        let xid = XCreateWindow(d, connection.root, g.x, g.y, UInt32(g.w), UInt32(g.h), 0, depth,
                                UInt32(InputOutput), visual, mask, &attrs)
        guard xid != 0 else { return nil }
        let entry = Entry(window: w, xid: UInt(xid), geometry: g)
        entries[ObjectIdentifier(w)] = entry
        byXID[UInt(xid)] = ObjectIdentifier(w)
        return entry
    }

    @discardableResult
    private func draw(_ entry: Entry, _ item: PresentedWindow, area: PixelRect?, origin: Point) -> Bool {
        // One opaque colour: the server fills the window (its background pixel), as fast as a fill gets,
        // with no buffer to draw, send and keep. Only where that pixel is cairo's (24-bit, undimmed).
        if format == .rgb24, item.softwareBrightness >= 1, let color = ViewRenderer.solidColor(of: item.window) {
            let pixel = UInt(SolidPixel.rgb24(color) & 0xFF_FFFF)
            if entry.solid != pixel || entry.buffer != nil {
                dropBuffer(entry)
                setBackground(entry, pixel: pixel)
            }
            entry.drawnBrightness = item.softwareBrightness
            return true
        }
        if entry.solid != nil { setBackground(entry, pixel: nil) }
        // A new buffer is drawn whole: what the damage leaves out would be unset pixels in it.
        let area = entry.buffer == nil ? nil : area
        if entry.buffer == nil {
            guard let format else { return false }
            entry.buffer = PixelBuffer(connection: connection, visual: visual, format: format, width: entry.geometry.w,
                                       height: entry.geometry.h, shared: useSharedMemory)
            if let b = entry.buffer { fence.add(b) }
        }
        guard let buffer = entry.buffer else { return false }
        fence.waitUntilRead(buffer)
        if buffer.unreadPuts > 0 { counters.drawsOverUnreadPixels += 1 }
        WindowRenderer.render(item.window, on: buffer.canvas, brightness: item.softwareBrightness, scale: item.scale,
                              origin: origin, area: area)
        entry.drawnBrightness = item.softwareBrightness
        // A window not mapped yet gets its pixels once, after the map.
        if entry.mapped { pushed += fence.put(buffer, to: entry.xid, gc: gc, area: area) }
        return true
    }

    /// Gives a window a background pixel the server paints it with (now, and wherever it is exposed), or
    /// none again (its pixels then come from its buffer). `XChangeWindowAttributes`, `XClearArea`.
    private func setBackground(_ entry: Entry, pixel: UInt?) {
        let d = connection.display
        var attrs = XSetWindowAttributes()
        if let pixel {
            attrs.background_pixel = pixel
            XChangeWindowAttributes(d, Window(entry.xid), UInt(CWBackPixel), &attrs)
            XClearArea(d, Window(entry.xid), 0, 0, 0, 0, 0)
        } else {
            attrs.background_pixmap = 0
            XChangeWindowAttributes(d, Window(entry.xid), UInt(CWBackPixmap), &attrs)
        }
        entry.solid = pixel
    }

    private func dropBuffer(_ entry: Entry) {
        if let b = entry.buffer { fence.remove(b) }
        entry.buffer?.release(connectionAlive: !connection.isLost)
        entry.buffer = nil
    }

    private func destroy(_ id: ObjectIdentifier, _ entry: Entry) {
        dropBuffer(entry)
        if !connection.isLost { XDestroyWindow(connection.display, Window(entry.xid)) }
        entries[id] = nil
        if lastEntry === entry { lastEntry = nil }
        byXID[entry.xid] = nil
    }

    /// Puts a window's pixels again and waits for the server to have read them: the push alone.
    package func pushAgain(_ window: Multihead.Window) {
        guard let e = entries[ObjectIdentifier(window)], e.mapped, let b = e.buffer else { return }
        fence.put(b, to: e.xid, gc: gc)
        waitForReads()
    }

    /// Waits until the server has read every shared put sent so far (the end of a frame's path from a
    /// change to pixels on the server), or, without shared memory, for a round trip (`XSync`).
    func waitForReads() {
        guard fence.isShared else { return connection.sync() }
        // The buffers put since the last wait, not every window's: a frame of one window among a hundred
        // waits on one.
        fence.waitUntilAllRead()
    }

    /// Puts the exposed pixels of a window again from its buffer, without drawing them.
    func exposed(xid: UInt, area: PixelRect) {
        guard let id = byXID[xid], let e = entries[id], e.mapped else { return }
        if let b = e.buffer { counters.totalPushedPixels += fence.put(b, to: e.xid, gc: gc, area: area) }
        connection.flush()
    }

    /// Our X window was destroyed by someone else: forget it; the returned model window must be shown again.
    func lost(xid: UInt) -> Multihead.Window? {
        guard let id = byXID[xid], let e = entries[id] else { return nil }
        dropBuffer(e)
        entries[id] = nil
        if lastEntry === e { lastEntry = nil }
        byXID[xid] = nil
        appliedOrder.removeAll { $0 == xid }
        return e.window
    }

    /// Gives the focus to a window's X window once it is mapped (`XSetInputFocus`).
    func focus(_ window: Multihead.Window?) {
        pendingFocus = .some(window.map(ObjectIdentifier.init))
        applyPendingFocus()
    }

    private func applyPendingFocus() {
        guard let pending = pendingFocus, !connection.isLost else { return }
        let d = connection.display
        if let id = pending {
            guard let e = entries[id], e.mapped else { return }
            XSetInputFocus(d, Window(e.xid), Int32(RevertToPointerRoot), Time(CurrentTime))
        } else {
            XSetInputFocus(d, Window(PointerRoot), Int32(RevertToPointerRoot), Time(CurrentTime))
        }
        pendingFocus = nil
        connection.flush()
    }

    /// X's name for a visual class.
    static func className(_ c: Int32) -> String {
        switch c {
        case StaticGray: "StaticGray"
        case GrayScale: "GrayScale"
        case StaticColor: "StaticColor"
        case PseudoColor: "PseudoColor"
        case TrueColor: "TrueColor"
        case DirectColor: "DirectColor"
        default: "visual class \(c)"
        }
    }

    /// Destroys every window and buffer, the colormap and the GC.
    func tearDown() {
        for (id, e) in entries { destroy(id, e) }
        if !connection.isLost { XFreeColormap(connection.display, colormap) }
        // After a lost connection Xlib still frees the GC's memory (the request goes nowhere).
        XFreeGC(connection.display, gc)
    }
}
