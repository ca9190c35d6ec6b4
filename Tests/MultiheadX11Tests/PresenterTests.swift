import Foundation
import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Testing

/// A view that records touches and keys.
@MainActor
final class TouchRecorder: View {
    var log: [String] = []
    override var canBecomeFirstResponder: Bool { true }
    override func touchesBegan(_ t: Set<Touch>, with e: Event) { log.append("began \(t.first.map { $0.location(in: self) } ?? .zero)") }
    override func touchesMoved(_ t: Set<Touch>, with e: Event) { if log.last != "moved" { log.append("moved") } }
    override func touchesEnded(_ t: Set<Touch>, with e: Event) { log.append("ended") }
    override func pressesBegan(_ p: Set<Press>, with e: Event) { log.append("key \(p.first?.key.name ?? "?")") }
}

/// /proc/sysvipc/shm, row by row, read to its end (procfs reports no size, so read until EOF).
func shmTable() -> [[Substring]] {
    let data = FileHandle(forReadingAtPath: "/proc/sysvipc/shm")?.readDataToEndOfFile() ?? Data()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
}

@MainActor
@Suite("Windows shown on a real Xvfb", .timeLimit(.minutes(3)))
struct PresenterTests {
    static let layout: [VirtualServer.Monitor] = [
        .init("MAIN", "800x600+0+0", primary: true), .init("EXT", "640x480+800+0"),
    ]
    let red = Bitmap.rgb(.red), blue = Bitmap.rgb(.blue), green = Bitmap.rgb(.green), black: UInt32 = 0

    func start(shm: Bool = true) async throws -> (VirtualServer, Application, X11Backend) {
        let server = try await VirtualServer.start(monitors: Self.layout, framebuffer: Size(width: 1440, height: 600))
        let backend = X11Backend(display: server.display, useSharedMemory: shm)
        let app = try Application(backend: backend)
        return (server, app, backend)
    }

    /// Flushes and waits until the server shows `expected` at a desktop point.
    func expectPixel(_ server: VirtualServer, _ app: Application, at p: (Int, Int), _ expected: UInt32,
                     sourceLocation: SourceLocation = #_sourceLocation) async throws {
        var seen: UInt32?
        let ok = await app.run(until: {
            seen = try? server.controlConnection().screenshot(of: Rect(x: Double(p.0), y: Double(p.1), width: 1, height: 1)).pixels.first
            return seen == expected
        }, timeout: .seconds(3))
        #expect(ok, "pixel at \(p): \(String(seen ?? 0xDEAD_BEEF, radix: 16)) instead of \(String(expected, radix: 16))",
                sourceLocation: sourceLocation)
    }

    @Test("show, hide, restack by showing, re-level: the pixels follow")
    func showHideRestackRelevel() async throws {
        let (server, app, _) = try await start()
        defer { server.stop() }
        let a = solidWindow(app, app.mainScreen, Rect(x: 100, y: 100, width: 200, height: 200), .red)
        let b = solidWindow(app, app.mainScreen, Rect(x: 200, y: 200, width: 200, height: 200), .blue)
        try await expectPixel(server, app, at: (150, 150), black)
        a.isHidden = false
        try await expectPixel(server, app, at: (150, 150), red)
        b.isHidden = false
        try await expectPixel(server, app, at: (250, 250), blue)
        a.isHidden = true
        a.isHidden = false
        try await expectPixel(server, app, at: (250, 250), red)
        b.windowLevel = .statusBar
        try await expectPixel(server, app, at: (250, 250), blue)
        b.isHidden = true
        try await expectPixel(server, app, at: (350, 350), black)
        try await expectPixel(server, app, at: (250, 250), red)
    }

    @Test("moving a window to another screen moves its pixels; a disconnect under it hides it")
    func moveAndDisconnect() async throws {
        let (server, app, _) = try await start()
        defer { server.stop() }
        let ext = try #require(app.screen(named: "EXT"))
        let w = solidWindow(app, app.mainScreen, Rect(x: 10, y: 10, width: 100, height: 100), .green)
        w.isHidden = false
        try await expectPixel(server, app, at: (50, 50), green)
        w.screen = ext
        try await expectPixel(server, app, at: (850, 50), green)
        try await expectPixel(server, app, at: (50, 50), black)
        try server.unplug("EXT")
        #expect(await app.run(until: { w.isHidden }))
        try await expectPixel(server, app, at: (850, 50), black)
        #expect(w.screen === app.mainScreen)
    }

    @Test("the server's pixels equal the model rendered offscreen, overlapping windows at three levels on two screens")
    func offscreenEqualsServer() async throws {
        for shm in [true, false] {
            let (server, app, backend) = try await start(shm: shm)
            defer { server.stop() }
            #expect(backend.isUsingSharedMemory == shm)
            let ext = try #require(app.screen(named: "EXT"))
            let base = solidWindow(app, app.mainScreen, Rect(x: 0, y: 0, width: 800, height: 600), Color(white: 0.9))
            let content = View(frame: Rect(x: 20, y: 20, width: 300, height: 200))
            content.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.8, alpha: 0.7)
            content.bounds.origin = Point(x: 10, y: 10)
            content.clipsToBounds = true
            let inner = View(frame: Rect(x: 250, y: 150, width: 200, height: 200))
            inner.backgroundColor = .orange
            inner.alpha = 0.5
            content.addSubview(inner)
            let label = Label(frame: Rect(x: 30, y: 300, width: 300, height: 30))
            label.text = "<no content>"
            label.fontSize = 18
            base.addSubview(content)
            base.addSubview(label)
            let status = solidWindow(app, app.mainScreen, Rect(x: 300, y: 250, width: 300, height: 150), .yellow)
            status.windowLevel = .statusBar
            let alert = solidWindow(app, app.mainScreen, Rect(x: 500, y: 350, width: 200, height: 200), .red)
            alert.windowLevel = .alert
            let extWindow = solidWindow(app, ext, Rect(x: 40, y: 40, width: 300, height: 300), .white)
            let extLabel = Label(frame: Rect(x: 10, y: 10, width: 200, height: 40))
            extLabel.text = "external"
            extWindow.addSubview(extLabel)
            for w in [alert, status, extWindow] { w.isHidden = false }
            base.makeKeyAndVisible()
            app.flush()
            for screen in [app.mainScreen, ext] {
                let expected = OffscreenRenderer.render(screen)
                var got = Bitmap(width: 0, height: 0)
                await app.run(until: {
                    got = (try? backend.screenshot(of: screen)) ?? got
                    return got == expected
                }, timeout: .seconds(3))
                #expect(got.differingPixels(from: expected) == 0, "\(screen.name), shm \(shm)")
                #expect(got.width == Int(screen.frame.width) && got.height == Int(screen.frame.height))
            }
            // The label drew something dark on the light base, and the alert is in front of the status bar.
            let main = try backend.screenshot(of: app.mainScreen)
            #expect(main.pixel(x: 550, y: 380) == red)
            #expect((30..<200).contains { x in (300..<330).contains { y in (main.pixel(x: x, y: y) ?? 0xFFFFFF) < 0x808080 } })
            let file = NSTemporaryDirectory() + "mh-test-\(UUID().uuidString).png"
            defer { unlink(file) }
            try main.writePNG(to: file)
            #expect(try Bitmap(contentsOfPNG: file) == main)
        }
    }

    @Test("clicks and keys synthesized with XTest reach the right view and the key window")
    func xtestInput() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let ext = try #require(app.screen(named: "EXT"))
        let left = solidWindow(app, app.mainScreen, Rect(x: 0, y: 0, width: 400, height: 400), .gray)
        let leftView = TouchRecorder(frame: Rect(x: 100, y: 100, width: 100, height: 100))
        left.addSubview(leftView)
        let right = solidWindow(app, ext, Rect(x: 0, y: 0, width: 400, height: 400), .gray)
        let rightView = TouchRecorder(frame: Rect(x: 10, y: 10, width: 100, height: 100))
        right.addSubview(rightView)
        left.makeKeyAndVisible()
        right.isHidden = false
        #expect(leftView.becomeFirstResponder())
        app.flush()
        #expect(await app.run(until: { backend.xWindow(for: right) != nil }))
        // The maps processed before the tap: XTest's connection is another client, whose fake click the
        // server may handle before it reads our requests (seen once: the click went to the root).
        try app.synchronize()
        // A pixel's input lands at its centre: pixel 150 is 150.5.
        try server.tap(at: Point(x: 150, y: 160))
        #expect(await app.run(until: { leftView.log.count >= 2 }))
        #expect(leftView.log == ["began (50.5, 60.5)", "ended"])
        try server.drag(from: Point(x: 820, y: 30), through: [Point(x: 830, y: 40), Point(x: 840, y: 50)])
        #expect(await app.run(until: { rightView.log.last == "ended" }))
        #expect(rightView.log == ["began (10.5, 20.5)", "moved", "ended"])
        try server.type("q")
        #expect(await app.run(until: { leftView.log.last == "key q" }))
        #expect(rightView.log.count == 3)
    }

    @Test("released windows leave no X window; a window never shown makes none")
    func releasedWindowsLeaveNothing() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let control = try server.controlConnection()
        let before = try control.topLevelWindowCount()
        var windows: [Window] = (0..<5).map { i in solidWindow(app, app.mainScreen, Rect(x: Double(i * 10), y: 0, width: 50, height: 50), .red) }
        let neverShown = Window(frame: Rect(x: 0, y: 0, width: 10, height: 10), screen: app.mainScreen)
        for w in windows { w.isHidden = false }
        app.flush()
        #expect(await app.run(until: { (try? control.topLevelWindowCount()) == before + 5 }))
        #expect(backend.xWindow(for: neverShown) == nil)
        windows.removeAll()
        #expect(await app.run(until: { (try? control.topLevelWindowCount()) == before }))
        try await expectPixel(server, app, at: (20, 20), black)
    }

    @Test("a released window's X window goes with it: its queued clicks reach nothing, the next go behind it, a new window takes one")
    func releasedWindowGoesWithIt() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let control = try server.controlConnection()
        let before = try control.topLevelWindowCount()
        let back = solidWindow(app, app.mainScreen, Rect(x: 0, y: 0, width: 400, height: 400), .gray)
        let backView = TouchRecorder(frame: back.bounds)
        back.addSubview(backView)
        back.isHidden = false
        var front: Window? = solidWindow(app, app.mainScreen, Rect(x: 100, y: 100, width: 100, height: 100), .red)
        front?.isHidden = false
        weak let released = front
        app.flush()
        #expect(await app.run(until: { (try? control.topLevelWindowCount()) == before + 2 }))
        // The server has sent this tap's events to the front window; it is released before they are read.
        // The backend holds windows unretained: it must find no window for them, not a freed one.
        try server.tap(at: Point(x: 150, y: 150))
        front = nil
        #expect(released == nil)
        try backend.synchronize()
        #expect(backView.log.isEmpty)
        #expect(await app.run(until: { (try? control.topLevelWindowCount()) == before + 1 }))
        try await expectPixel(server, app, at: (150, 150), Bitmap.rgb(.gray))
        try server.tap(at: Point(x: 150, y: 150))
        #expect(await app.run(until: { backView.log.count >= 2 }))
        #expect(backView.log == ["began (150.5, 150.5)", "ended"])
        // A window made in its place has an X window of its own, which takes the next tap.
        let again = solidWindow(app, app.mainScreen, Rect(x: 100, y: 100, width: 100, height: 100), .blue)
        let againView = TouchRecorder(frame: again.bounds)
        again.addSubview(againView)
        again.isHidden = false
        try await expectPixel(server, app, at: (150, 150), blue)
        try server.tap(at: Point(x: 150, y: 150))
        #expect(await app.run(until: { againView.log.count >= 2 }))
        #expect(againView.log == ["began (50.5, 50.5)", "ended"] && backView.log.count == 2)
    }

    @Test("only windows marked for redraw are drawn again")
    func onlyDirtyWindowsRedraw() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let ws = (0..<10).map { i in solidWindow(app, app.mainScreen, Rect(x: Double(i * 50), y: 0, width: 40, height: 40), .red) }
        for w in ws { w.isHidden = false }
        app.flush()
        #expect(backend.lastRedrawCount == 10)
        ws[3].backgroundColor = .blue
        app.flush()
        #expect(backend.lastRedrawCount == 1)
        try await expectPixel(server, app, at: (170, 20), blue)
        ws[4].frame.origin.y = 100
        app.flush()
        #expect(backend.lastRedrawCount == 1)
    }

    @Test("a window destroyed under us is shown again; oversized windows are clamped, not refused")
    func destroyedUnderUsAndClamped() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let w = solidWindow(app, app.mainScreen, Rect(x: 0, y: 0, width: 100, height: 100), .green)
        w.isHidden = false
        // A barrier: the window exists on the server before the kit's connection destroys it.
        try app.synchronize()
        let xid = try #require(backend.xWindow(for: w))
        try server.controlConnection().destroyWindow(xid)
        #expect(await app.run(until: { backend.xWindow(for: w).map { $0 != xid } ?? false }))
        try await expectPixel(server, app, at: (50, 50), green)
        let huge = solidWindow(app, app.mainScreen, Rect(x: -50, y: 0, width: 100_000, height: 70_000), .blue)
        huge.isHidden = false
        try await expectPixel(server, app, at: (700, 500), blue)
        let size = try server.controlConnection().windowSize(try #require(backend.xWindow(for: huge)))
        #expect(size.width <= 1440 && size.height <= 600 && size.width >= 1)
    }

    @Test("software dimming darkens a virtual monitor's pixels exactly as the offscreen render does")
    func softwareDimming() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let w = solidWindow(app, app.mainScreen, Rect(x: 0, y: 0, width: 100, height: 100), .red)
        w.isHidden = false
        try await expectPixel(server, app, at: (50, 50), red)
        #expect(!app.mainScreen.snapshot.hasHardwareBrightness)
        app.mainScreen.brightness = 0.5
        app.flush()
        let expected = OffscreenRenderer.render(app.mainScreen)
        let dimmed = try #require(expected.pixel(x: 50, y: 50))
        #expect((0x7E0000...0x810000).contains(dimmed) && dimmed & 0xFFFF == 0)
        try await expectPixel(server, app, at: (50, 50), dimmed)
        #expect(try backend.screenshot(of: app.mainScreen) == expected)
    }

    @Test("an output with a gamma ramp takes the brightness in hardware")
    func hardwareBrightness() async throws {
        let server = try await VirtualServer.start(monitors: [], framebuffer: Size(width: 800, height: 600))
        defer { server.stop() }
        let app = try server.makeApplication()
        let screen = app.mainScreen
        #expect(screen.snapshot.hasHardwareBrightness && screen.brightness == 1)
        screen.brightness = 0.5
        #expect(screen.softwareBrightness == 1)
        let fresh = try server.makeApplication()
        #expect(fresh.mainScreen.brightness == 0.5)
        // Nothing reported a change back: the model's own change is not echoed.
        let log = ScreenNotificationLog(app)
        try server.setOutputMode("screen", width: 640, height: 480)
        // A barrier, not a wait: the server has answered, and every event it sent before is handled.
        try app.synchronize()
        #expect(log.summary == ["mode screen"] && screen.brightness == 0.5)
    }

    @Test("shared segments are mode 0600, marked for removal, and gone once the windows are")
    func sharedMemoryHygiene() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        var windows = (0..<3).map { i in drawnWindow(app, app.mainScreen, Rect(x: Double(i * 100), y: 0, width: 90, height: 90), .red) }
        for w in windows { w.isHidden = false }
        app.flush()
        let ids = backend.sharedSegmentIDs
        #expect(ids.count == 3)
        let table = shmTable().dropFirst()
        for id in ids {
            let row = try #require(table.first { $0.count > 2 && $0[1] == "\(id)" })
            // perms: 600, plus the "destroy" flag (01000) set by IPC_RMID right after attaching.
            #expect(row[2] == "1600", "segment \(id) perms \(row[2])")
        }
        windows.removeAll()
        // The server lets go of a segment when it handles our XShmDetach; then the kernel removes it.
        func anyLeft() -> Bool {
            let rows = shmTable()
            return ids.contains { id in rows.contains { $0.count > 2 && $0[1] == "\(id)" } }
        }
        #expect(await app.run(until: { !anyLeft() }, timeout: .seconds(2)))
    }

    @Test("the server's stacking order of our windows equals Application.windows; makeKey gives the X focus")
    func stackingOrderAndFocus() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        let ext = try #require(app.screen(named: "EXT"))
        let a = solidWindow(app, app.mainScreen, Rect(x: 0, y: 0, width: 50, height: 50), .red)
        let b = solidWindow(app, ext, Rect(x: 0, y: 0, width: 50, height: 50), .blue)
        let c = solidWindow(app, app.mainScreen, Rect(x: 10, y: 10, width: 50, height: 50), .green)
        c.windowLevel = .alert
        let d = solidWindow(app, app.mainScreen, Rect(x: 20, y: 20, width: 50, height: 50), .yellow)
        for w in [c, a, b] { w.isHidden = false }
        d.makeKeyAndVisible()
        a.isHidden = true
        a.isHidden = false
        b.windowLevel = .statusBar
        // A barrier: the server has handled the app's requests before the kit's connection asks it.
        try app.synchronize()
        let control = try server.controlConnection()
        func ours() throws -> [UInt] {
            let ids = Set(app.windows.compactMap { backend.xWindow(for: $0) })
            return try control.mappedStackingOrder().filter(ids.contains)
        }
        let expected = app.windows.filter { !$0.isHidden }.compactMap { backend.xWindow(for: $0) }
        #expect(expected.count == 4)
        #expect(try ours() == expected)
        #expect(app.windows.map { ObjectIdentifier($0) } == [d, a, b, c].map(ObjectIdentifier.init))
        #expect(await app.run(until: { (try? control.inputFocus()) == backend.xWindow(for: d) }))
        a.makeKey()
        app.flush()
        // The focus request travels on the app's connection, the query on the kit's: wait for the server.
        #expect(await app.run(until: { (try? control.inputFocus()) == backend.xWindow(for: a) }))
    }

    @Test("a custom view's draw(_:in:) reaches the screen")
    func customDrawing() async throws {
        final class Stripes: View {
            override func draw(_ rect: Rect, in context: any GraphicsContext) {
                for i in stride(from: 0.0, to: rect.width, by: 20) {
                    context.fill(Rect(x: i, y: 0, width: 10, height: rect.height), with: .green)
                }
            }
        }
        let (server, app, _) = try await start()
        defer { server.stop() }
        let w = solidWindow(app, app.mainScreen, Rect(x: 0, y: 0, width: 200, height: 100), .blue)
        w.addSubview(Stripes(frame: Rect(x: 0, y: 0, width: 200, height: 100)))
        w.isHidden = false
        try await expectPixel(server, app, at: (5, 50), green)
        try await expectPixel(server, app, at: (15, 50), blue)
    }
}

@MainActor
@Suite("Bitmap.rgb is what the server shows", .timeLimit(.minutes(3)))
struct BitmapRoundingTests {
    @Test("every grey level and a few colours: Bitmap.rgb equals the pixel read back")
    func rgbMatchesServer() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        let app = try server.makeApplication()
        // 0, 1/255, …, 1 and values between levels (0.95 drew 0xF3 where rounding v×255 said 0xF2).
        var colors = (0...255).map { Color(white: Double($0) / 255) }
        colors += [0.95, 0.5, 0.1, 1.0 / 3, 0.999].map { Color(white: $0) }
        colors += [Color(red: 0.2, green: 0.6, blue: 0.95), Color(red: 0.07, green: 0.33, blue: 0.71)]
        let w = Window(frame: Rect(x: 0, y: 0, width: Double(colors.count), height: 4), screen: app.mainScreen)
        for (i, c) in colors.enumerated() {
            let strip = View(frame: Rect(x: Double(i), y: 0, width: 1, height: 4))
            strip.backgroundColor = c
            w.addSubview(strip)
        }
        w.isHidden = false
        let last = colors.count - 1
        var shot = Bitmap(width: 0, height: 0)
        #expect(await app.run(until: {
            shot = (try? server.screenshot(of: "VIRTUAL-1")) ?? shot
            return shot.pixel(x: last, y: 1, matches: colors[last])
        }))
        for (i, c) in colors.enumerated() {
            #expect(shot.pixel(x: i, y: 1) == Bitmap.rgb(c), "colour \(i): \(c)")
            #expect(shot.pixel(x: i, y: 1, matches: c))
        }
        #expect(Bitmap.rgb(Color(white: 0.95)) == 0xF3F3F3)
        // A tolerance compares each channel on its own.
        var one = Bitmap(width: 1, height: 1)
        one.pixels[0] = 0xF1F3F5
        #expect(one.pixel(x: 0, y: 0, matches: Color(white: 0.95), tolerance: 2))
        #expect(!one.pixel(x: 0, y: 0, matches: Color(white: 0.95), tolerance: 1))
    }
}
