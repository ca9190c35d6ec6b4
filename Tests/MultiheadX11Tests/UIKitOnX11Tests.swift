import Foundation
import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
import MultiheadX11
import Testing

/// An overlay window whose own area lets touches through to the windows behind it.
@MainActor
final class OverlayWindow: Window {
    override func hitTest(_ point: Point, with event: Event? = nil) -> View? {
        let hit = super.hitTest(point, with: event)
        return hit === self ? nil : hit
    }
}

@MainActor
@Suite("UIKit's second pass on a real Xvfb: pass-through windows, active state from the X focus", .timeLimit(.minutes(3)))
struct UIKitOnX11Tests {
    @Test("a click on an overlay's empty area reaches the window under it; on its button, the button")
    func passThroughOverlay() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let backend = X11Backend(display: server.display)
        let app = try Application(backend: backend)
        let back = solidWindow(app, app.mainScreen, Rect(x: 0, y: 0, width: 400, height: 400), .gray)
        let backView = TouchRecorder(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        back.addSubview(backView)
        back.isHidden = false
        let overlay = OverlayWindow(frame: Rect(x: 0, y: 0, width: 400, height: 400), screen: app.mainScreen)
        overlay.windowLevel = .alert
        let button = TouchRecorder(frame: Rect(x: 300, y: 300, width: 50, height: 50))
        button.backgroundColor = .white
        overlay.addSubview(button)
        overlay.isHidden = false
        app.flush()
        #expect(await app.run(until: { backend.xWindow(for: overlay) != nil && backend.xWindow(for: back) != nil }))
        // A flush sends; the barrier makes another client see what it sent.
        try app.synchronize()
        // The overlay's X window is on top: X delivers the click to it, and the model passes it on.
        let control = try server.controlConnection()
        defer { control.close() }
        #expect(try control.mappedStackingOrder().last == backend.xWindow(for: overlay))
        try server.tap(at: Point(x: 100, y: 120))
        #expect(await app.run(until: { backView.log.count >= 2 }))
        #expect(backView.log == ["began (100.5, 120.5)", "ended"])
        try server.tap(at: Point(x: 310, y: 320))
        #expect(await app.run(until: { button.log.count >= 2 }))
        #expect(button.log == ["began (10.5, 20.5)", "ended"])
        #expect(backView.log.count == 2)
    }

    @Test("a real press in progress is cancelled when its window hides: touchesCancelled, never touchesEnded")
    func cancelledOnHide() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let backend = X11Backend(display: server.display)
        let app = try Application(backend: backend)
        final class Canceller: View {
            var log: [String] = []
            override func touchesBegan(_ t: Set<Touch>, with e: Event) { log.append("began") }
            override func touchesEnded(_ t: Set<Touch>, with e: Event) { log.append("ended") }
            override func touchesCancelled(_ t: Set<Touch>, with e: Event?) { log.append("cancelled") }
        }
        let w = solidWindow(app, app.mainScreen, Rect(x: 0, y: 0, width: 200, height: 200), .gray)
        let v = Canceller(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        w.addSubview(v)
        w.isHidden = false
        app.flush()
        #expect(await app.run(until: { backend.xWindow(for: w) != nil }))
        let control = try server.controlConnection()
        defer { control.close() }
        try control.pointerDown(at: Point(x: 50, y: 50))
        #expect(await app.run(until: { v.log == ["began"] }))
        w.isHidden = true
        try control.pointerUp()
        try app.synchronize()
        #expect(v.log == ["began", "cancelled"])
    }

    @Test("focus leaving every window of the app makes it inactive; focus back on one makes it active")
    func activeFollowsTheXFocus() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let backend = X11Backend(display: server.display)
        let app = try Application(backend: backend)
        var states: [String] = []
        let tokens = [(Application.didBecomeActiveNotification, "active"), (Application.willResignActiveNotification, "resign")].map { name, text in
            NotificationCenter.default.addObserver(forName: name, object: app, queue: nil) { _ in
                MainActor.assumeIsolated { states.append(text) }
            }
        }
        defer { tokens.forEach(NotificationCenter.default.removeObserver) }
        app.launch()
        let w = solidWindow(app, app.mainScreen, Rect(x: 0, y: 0, width: 200, height: 200), .gray)
        w.makeKeyAndVisible()
        app.flush()
        let control = try server.controlConnection()
        defer { control.close() }
        #expect(await app.run(until: { (try? control.inputFocus()) == backend.xWindow(for: w) }))
        try app.synchronize()
        #expect(app.state == .active)

        // Another client's window takes the focus, as a window manager would give it.
        let other = try control.createWindow(Rect(x: 500, y: 500, width: 100, height: 100))
        try control.setInputFocus(other)
        #expect(await app.run(until: { app.state == .inactive }))
        let ours = try #require(backend.xWindow(for: w))
        try control.setInputFocus(ours)
        #expect(await app.run(until: { app.state == .active }))
        #expect(states == ["active", "resign", "active"])
    }
}
