import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11
import Testing

/// An app as a user would write it: a placeholder window on every external screen, released on unplug.
@MainActor
final class ExternalDisplayApp {
    var windows: [String: Window] = [:]
    private var tokens: [any NSObjectProtocol] = []

    init(_ app: Application) {
        let center = NotificationCenter.default
        tokens.append(center.addObserver(forName: Screen.didConnectNotification, object: nil, queue: nil) { [weak self] n in
            nonisolated(unsafe) let n = n
            MainActor.assumeIsolated {
                guard let s = n.object as? Screen, s.application === app else { return }
                let w = Window(frame: s.bounds, screen: s)
                w.backgroundColor = .white
                w.isHidden = false
                self?.windows[s.name] = w
            }
        })
        tokens.append(center.addObserver(forName: Screen.didDisconnectNotification, object: nil, queue: nil) { [weak self] n in
            nonisolated(unsafe) let n = n
            MainActor.assumeIsolated {
                guard let s = n.object as? Screen else { return }
                self?.windows.removeValue(forKey: s.name)?.isHidden = true
            }
        })
    }
}

/// The example of docs/hotplug-testing.md: how to test your own app's hotplug handling.
@MainActor
@Test("example: an external display gets a white window, and loses it on unplug", .timeLimit(.minutes(1)))
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
