import Foundation
import Multihead
@testable import MultiheadGL
import MultiheadTesting
import MultiheadX11
import Testing

/// How long a GL test waits for a fact: the suite's tests share the main actor, and one that blocks it
/// holds every frame clock (these views' and the display links'); the bound only keeps a broken view
/// from hanging the run.
let glWait = Duration.seconds(120)

/// GL views drawn with EGL on the kit's servers (Mesa's llvmpipe: no GPU, no GLX), read back from the
/// server as a user would check them. Their views draw at 10 fps (`glWindow`): a GL frame holds the main
/// actor while llvmpipe draws it, and the suite's other tests (display links among them) share that actor.
@MainActor
@Suite("GLView on a real X server", .timeLimit(.minutes(3)))
struct GLViewTests {
    let blue = Color(red: 0, green: 0, blue: 1)

    @Test("the clear colour, a triangle's inside and outside and a label over the scene, read back from the server",
          arguments: [VirtualServer.Kind.xvfb, .xorg])
    func drawsAndComposes(kind: VirtualServer.Kind) async throws {
        let server = try await VirtualServer.start(kind)
        defer { server.stop() }
        let app = try server.makeApplication()
        let delegate = TriangleDelegate(clear: blue)
        let (window, view) = glWindow(app.mainScreen, Rect(x: 40, y: 30, width: 400, height: 300), delegate)
        let label = Label(frame: Rect(x: 10, y: 10, width: 200, height: 30))
        label.text = "HUD"
        label.backgroundColor = .red
        view.addSubview(label)
        try await app.waitUntil(timeout: glWait) {
            pixel(server, window, at: Point(x: 200, y: 150))?.near(.green) == true
                && pixel(server, window, at: Point(x: 20, y: 290))?.near(blue) == true
                && pixel(server, window, at: Point(x: 205, y: 35))?.near(.red) == true
        }
        #expect(view.renderingError == nil)
        #expect(view.drawableSize == Size(width: 400, height: 300))
        // What the view read back is what the delegate drew, upright: the triangle's apex is near the top.
        let shot = view.snapshot()
        #expect(shot.width == 400 && shot.height == 300)
        #expect(shot.color(x: 200, y: 150)?.near(.green) == true)
        #expect(shot.color(x: 200, y: 90)?.near(.green) == true && shot.color(x: 200, y: 230)?.near(blue) == true)
        #expect(shot.color(x: 5, y: 5)?.near(blue) == true)
        // Below the window: the desktop, not the GL view's clear colour.
        #expect(pixel(server, window, at: Point(x: 200, y: 310)).map { !$0.near(blue) } == true)
        // The label takes the touches over the scene; elsewhere the GL view does.
        #expect(window.hitTest(Point(x: 20, y: 20)) === label)
        #expect(window.hitTest(Point(x: 200, y: 200)) === view)
    }

    @Test("driven by the frame clock while not paused; a paused view does not draw")
    func pausedDoesNotDraw() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        let app = try server.makeApplication()
        let delegate = TriangleDelegate(clear: blue)
        let (window, view) = glWindow(app.mainScreen, Rect(x: 0, y: 0, width: 64, height: 64), delegate)
        defer { withExtendedLifetime(window) {} }
        try await app.waitUntil(timeout: glWait) { delegate.frames >= 5 }
        view.isPaused = true
        let paused = delegate.frames
        // Ten frames of the screen go by (a display link of its own counts them).
        var ticks = 0
        let link = app.mainScreen.displayLink { _ in ticks += 1 }
        defer { link.invalidate() }
        try await app.waitUntil(timeout: glWait) { ticks >= 10 }
        #expect(delegate.frames == paused)
        #expect(view.framesDrawn == paused)
        // Paused before it was ever shown: it draws nothing, and shows its background.
        let idle = TriangleDelegate(clear: blue)
        let (second, still) = glWindow(app.mainScreen, Rect(x: 100, y: 0, width: 64, height: 64), idle)
        still.isPaused = true
        still.backgroundColor = .red
        ticks = 0
        try await app.waitUntil(timeout: glWait) { ticks >= 5 && pixel(server, second, at: Point(x: 10, y: 10))?.near(.red) == true }
        #expect(idle.frames == 0 && still.snapshot().width == 0)
        view.isPaused = false
        try await app.waitUntil(timeout: glWait) { delegate.frames >= paused + 3 }
    }

    @Test("a frame leaves its context current on no thread: another thread can make it current, and the view draws on")
    func contextCurrentNowhereAfterAFrame() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        let app = try server.makeApplication()
        let delegate = TriangleDelegate(clear: blue)
        let (window, view) = glWindow(app.mainScreen, Rect(x: 0, y: 0, width: 64, height: 64), delegate)
        defer { withExtendedLifetime(window) {} }
        try await app.waitUntil(timeout: glWait) { delegate.frames >= 2 }
        let renderer = try #require(view.renderer)
        #expect(eglGetCurrentContext() == nil)
        // The main actor's next job may run on another thread (under dispatch_main, as here): a context left
        // current on the last one's thread could not be made current there (EGL_BAD_ACCESS). Paused while the
        // other thread holds it: a frame drawn meanwhile (the main actor runs while this test awaits) would
        // make it current here and fail that thread's call for a reason of the test's own.
        view.isPaused = true
        let handles = (UInt(bitPattern: renderer.device.display), UInt(bitPattern: renderer.context),
                       renderer.surface.map { UInt(bitPattern: $0) })
        let elsewhere = await onOwnThread { () -> Bool in
            let display = UnsafeMutableRawPointer(bitPattern: handles.0)
            let surface = handles.2.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
            let made = eglMakeCurrent(display, surface, surface, UnsafeMutableRawPointer(bitPattern: handles.1)) == EGL_TRUE
            eglMakeCurrent(display, nil, nil, nil)
            eglReleaseThread()
            return made
        }
        #expect(elsewhere)
        view.isPaused = false
        let drawn = delegate.frames
        try await app.waitUntil(timeout: glWait) { delegate.frames >= drawn + 2 }
        #expect(view.renderingError == nil)
    }

    @Test("with enableSetNeedsDisplay it draws once when shown and once per setNeedsDisplay(), never by itself")
    func setNeedsDisplayDrawsOnce() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        let app = try server.makeApplication()
        let delegate = TriangleDelegate(clear: blue)
        let window = Window(frame: Rect(x: 0, y: 0, width: 64, height: 64), screen: app.mainScreen)
        let view = GLView(frame: window.bounds)
        view.enableSetNeedsDisplay = true
        view.delegate = delegate
        window.addSubview(view)
        window.isHidden = false
        try await app.waitUntil(timeout: glWait) { delegate.frames == 1 }
        var ticks = 0
        let link = app.mainScreen.displayLink { _ in ticks += 1 }
        defer { link.invalidate() }
        try await app.waitUntil(timeout: glWait) { ticks >= 10 }
        #expect(delegate.frames == 1)
        view.setNeedsDisplay()
        try app.synchronize()
        #expect(delegate.frames == 2)
        // Two before one flush: one frame.
        delegate.clear = .red
        view.setNeedsDisplay()
        view.setNeedsDisplay()
        try await app.waitUntil(timeout: glWait) { pixel(server, window, at: Point(x: 2, y: 2))?.near(.red) == true }
        #expect(delegate.frames == 3)
        ticks = 0
        try await app.waitUntil(timeout: glWait) { ticks >= 5 }
        #expect(delegate.frames == 3)
    }

    @Test("a hotplug moves its window to another screen: the same context and program draw there")
    func followsItsWindowAcrossScreens() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        let app = try server.makeApplication()
        let delegate = TriangleDelegate(clear: blue)
        let (window, view) = glWindow(app.mainScreen, Rect(x: 0, y: 0, width: 200, height: 160), delegate)
        try await app.waitUntil(timeout: glWait) { pixel(server, window, at: Point(x: 100, y: 80))?.near(.green) == true }
        let renderer = try #require(view.renderer)
        try server.plug("EXT-1", "1024x768+1920+0")
        try await app.waitUntil(timeout: glWait) { app.screen(named: "EXT-1") != nil }
        let external = try #require(app.screen(named: "EXT-1"))
        delegate.clear = .yellow
        window.screen = external
        try await app.waitUntil(timeout: glWait) {
            pixel(server, window, at: Point(x: 100, y: 80))?.near(.green) == true
                && pixel(server, window, at: Point(x: 5, y: 5))?.near(.yellow) == true
        }
        // Unplugged: the window goes to the main screen, hidden (UIKit's rule); shown again, it draws there.
        try server.unplug("EXT-1")
        try await app.waitUntil(timeout: glWait) { !external.isConnected && window.isHidden }
        delegate.clear = .red
        window.isHidden = false
        try await app.waitUntil(timeout: glWait) {
            window.screen === app.mainScreen && pixel(server, window, at: Point(x: 5, y: 5))?.near(.red) == true
        }
        #expect(view.renderer === renderer)
        #expect(delegate.programs.count == 1)
    }

    @Test("a mode change that resizes its window resizes the drawable and draws again (640×480 to 400×300)")
    func modeChangeResizes() async throws {
        let server = try await VirtualServer.start(monitors: [.init("VIRTUAL-1", "640x480+0+0", primary: true)])
        defer { server.stop() }
        let app = try server.makeApplication()
        let screen = app.mainScreen
        let delegate = TriangleDelegate(clear: blue)
        let (window, view) = glWindow(screen, screen.bounds, delegate)
        let observer = NotificationCenter.default.addObserver(forName: Screen.modeDidChangeNotification, object: screen, queue: nil) { _ in
            MainActor.assumeIsolated {
                window.frame = screen.bounds
                view.frame = window.bounds
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try await app.waitUntil(timeout: glWait) { view.drawableSize == Size(width: 640, height: 480) && delegate.frames > 0 }
        // A person changes the resolution (the server's mode, from outside the app).
        _ = try server.controlConnection().setMode("VIRTUAL-1", size: Size(width: 400, height: 300))
        try await app.waitUntil(timeout: glWait) {
            view.snapshot().width == 400 && pixel(server, window, at: Point(x: 200, y: 150))?.near(.green) == true
                && pixel(server, window, at: Point(x: 200, y: 250))?.near(blue) == true
        }
        #expect(view.drawableSize == Size(width: 400, height: 300))
        #expect(delegate.sizes.last == Size(width: 400, height: 300))
    }

    @Test("its own and its window's alpha and isHidden, and its superview's clip, apply to the GL pixels")
    func alphaHiddenAndClip() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        let app = try server.makeApplication()
        let window = Window(frame: Rect(x: 0, y: 0, width: 300, height: 200), screen: app.mainScreen)
        window.backgroundColor = .white
        let clipper = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        clipper.clipsToBounds = true
        let delegate = TriangleDelegate(clear: blue)
        let view = GLView(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        view.preferredFramesPerSecond = 10
        view.delegate = delegate
        clipper.addSubview(view)
        window.addSubview(clipper)
        window.isHidden = false
        try await app.waitUntil(timeout: glWait) {
            pixel(server, window, at: Point(x: 10, y: 10))?.near(blue) == true
                && pixel(server, window, at: Point(x: 150, y: 10))?.near(.white) == true
        }
        view.alpha = 0.5
        let half = Color(red: 0.5, green: 0.5, blue: 1)
        try await app.waitUntil(timeout: glWait) { pixel(server, window, at: Point(x: 10, y: 10))?.near(half, within: 3.0 / 255) == true }
        view.isHidden = true
        try await app.waitUntil(timeout: glWait) { pixel(server, window, at: Point(x: 10, y: 10))?.near(.white) == true }
        let drawn = delegate.frames
        var ticks = 0
        let link = app.mainScreen.displayLink { _ in ticks += 1 }
        defer { link.invalidate() }
        try await app.waitUntil(timeout: glWait) { ticks >= 5 }
        // Hidden, it is not drawn at all.
        #expect(delegate.frames == drawn)
    }

    @Test("a GL error left by draw(in:) is caught after it, logged once for the view, and the frame still shown")
    func glErrorAfterDraw() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        let app = try server.makeApplication()
        let delegate = TriangleDelegate(clear: blue)
        // An enum glEnable does not take: GL_INVALID_ENUM, each frame.
        delegate.afterDraw = { _ in glEnable(0xFFFF) }
        let (window, view) = glWindow(app.mainScreen, Rect(x: 0, y: 0, width: 64, height: 64), delegate)
        try await app.waitUntil(timeout: glWait) {
            delegate.frames >= 3 && pixel(server, window, at: Point(x: 5, y: 5))?.near(blue) == true
        }
        #expect(view.loggedGLErrors == ["GL_INVALID_ENUM"])
        #expect(view.renderingError == nil)
    }

    @Test("a GL view goes with its window and application: nothing of it is left to draw")
    func goesWithItsOwners() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        weak var gone: GLView?
        weak var goneApp: Application?
        let delegate = TriangleDelegate(clear: blue)
        do {
            let app = try server.makeApplication()
            let (window, view) = glWindow(app.mainScreen, Rect(x: 0, y: 0, width: 64, height: 64), delegate)
            try await app.waitUntil(timeout: glWait) { delegate.frames >= 2 }
            withExtendedLifetime(window) {}
            (gone, goneApp) = (view, app)
        }
        #expect(gone == nil && goneApp == nil)
        // Another application's frames go by; the released view's delegate hears of none.
        let frames = delegate.frames
        let app = try server.makeApplication()
        var ticks = 0
        let link = app.mainScreen.displayLink { _ in ticks += 1 }
        defer { link.invalidate() }
        try await app.waitUntil(timeout: glWait) { ticks >= 5 }
        #expect(delegate.frames == frames)
    }

    @Test("two applications one after another on the same display (a warm server) each get their own EGL display")
    func ownDevicePerApplication() async throws {
        let first = try await VirtualServer.start()
        let app1 = try first.makeApplication()
        let one = TriangleDelegate(clear: blue)
        var (window1, view1): (Window?, GLView?) = glWindow(app1.mainScreen, Rect(x: 0, y: 0, width: 64, height: 64), one)
        try await app1.waitUntil(timeout: glWait) { one.frames >= 1 }
        weak let device1 = view1?.renderer?.device
        #expect(device1 != nil)
        first.stop()
        // The pool's same server, same display name, a new application and backend.
        let second = try await VirtualServer.start()
        defer { second.stop() }
        let app2 = try second.makeApplication()
        let two = TriangleDelegate(clear: .red)
        let (window2, view2) = glWindow(app2.mainScreen, Rect(x: 0, y: 0, width: 64, height: 64), two)
        try await app2.waitUntil(timeout: glWait) { two.frames >= 1 }
        #expect(view2.renderer?.device !== device1)
        // The first application's views go, and its EGL display is terminated with them: the second's draws on.
        (window1, view1) = (nil, nil)
        withExtendedLifetime(app1) {}
        let drawn = two.frames
        try await app2.waitUntil(timeout: glWait) {
            two.frames >= drawn + 3 && pixel(second, window2, at: Point(x: 5, y: 5))?.near(.red) == true
        }
        #expect(view2.renderingError == nil)
        // The first device went with its last view.
        #expect(window1 == nil && view1 == nil && device1 == nil)
    }

    @Test("removed from its window while drawing, it ends cleanly and its framebuffer goes")
    func removedWhileDrawing() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        let app = try server.makeApplication()
        let delegate = TriangleDelegate(clear: blue)
        var (window, view): (Window, GLView?) = glWindow(app.mainScreen, Rect(x: 0, y: 0, width: 120, height: 120), delegate)
        try await app.waitUntil(timeout: glWait) { pixel(server, window, at: Point(x: 5, y: 5))?.near(blue) == true }
        weak let gone = view
        delegate.afterDraw = { v in
            v.removeFromSuperview()
            view = nil
        }
        try await app.waitUntil(timeout: glWait) { pixel(server, window, at: Point(x: 5, y: 5))?.near(.white) == true }
        #expect(view == nil)
        #expect(gone == nil)
        #expect(window.subviews.isEmpty)
    }
}
