import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11
import Testing

/// An app as a user would write it: a placeholder window on every external screen, released on unplug.
@MainActor
final class ExternalDisplayApp {
    var windows: [String: Window] = [:]
    private var observation: EventObservation?

    init(_ app: Application) {
        observation = app.onScreenEvent { [weak self] event in
            switch event {
            case .connect(let screen):
                let w = Window(frame: screen.bounds, screen: screen)
                w.backgroundColor = .white
                w.isHidden = false
                self?.windows[screen.name] = w
            case .disconnect(let screen):
                self?.windows.removeValue(forKey: screen.name)?.isHidden = true
            default:
                break
            }
        }
    }
}

/// The example of docs/hotplug-testing.md: how to test your own app's hotplug handling.
@MainActor
@Test("example: an external display gets a white window, and loses it on unplug", .timeLimit(.minutes(3)))
func exampleHotplugTest() async throws {
    let server = try await VirtualServer.start(monitors: [.init("MAIN", "1280x720+0+0", primary: true)])
    defer { server.stop() }
    let app = try server.makeApplication()
    let subject = ExternalDisplayApp(app)
    try server.plug("TV", "1920x1080+1280+0")
    try app.synchronize()                           // a barrier: the app has seen the plug, the server drew
    #expect(try server.screenshot(of: "TV").pixel(x: 960, y: 540) == 0xFFFFFF)
    try server.unplug("TV")
    try app.synchronize()
    #expect(subject.windows.isEmpty)
}

/// The same test, unchanged, on the wayland kind: the app an X client of Xwayland inside Multihead's
/// compositor, MAIN and TV the compositor's outputs (DP-1 and DP-2) under the names the test gave them,
/// the screenshot the compositor's. Run in the GL views' process (Scripts/test), where few X servers
/// are alive: wlroots 0.15 gives Xwayland a display among :0…:32 only.
@MainActor
@Test("example, unchanged, on the wayland kind (Xwayland in Multihead's compositor)", .timeLimit(.minutes(3)))
func exampleHotplugTestOnWayland() async throws {
    try await VirtualServer.$defaultKind.withValue(.wayland) {
        try await exampleHotplugTest()
    }
}
