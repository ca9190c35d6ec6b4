import Foundation
@testable import Multihead

/// Records the window and screen notifications of one application, in order, as "kind NAME".
@MainActor
final class NotificationLog {
    private(set) var entries: [String] = []
    private var tokens: [any NSObjectProtocol] = []
    private let names: [(Notification.Name, String)] = [
        (Window.didBecomeVisibleNotification, "visible"), (Window.didBecomeHiddenNotification, "hidden"),
        (Window.didBecomeKeyNotification, "key"), (Window.didResignKeyNotification, "resign"),
        (Screen.didConnectNotification, "connect"), (Screen.didDisconnectNotification, "disconnect"),
        (Screen.modeDidChangeNotification, "mode"), (Screen.brightnessDidChangeNotification, "brightness"),
    ]
    /// Called for every entry, after it is recorded.
    var onEntry: ((String, AnyObject) -> Void)?

    init(_ app: Application, label: @escaping @MainActor (AnyObject) -> String) {
        for (name, kind) in names {
            tokens.append(NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [weak self, weak app] n in
                nonisolated(unsafe) let n = n
                MainActor.assumeIsolated {
                    guard let self, let app, let obj = n.object as AnyObject? else { return }
                    if let w = obj as? Window, w.application !== app { return }
                    if let s = obj as? Screen, s.application !== app { return }
                    self.entries.append("\(kind) \(label(obj))")
                    self.onEntry?(kind, obj)
                }
            })
        }
    }

    func clear() { entries.removeAll() }

    isolated deinit { for t in tokens { NotificationCenter.default.removeObserver(t) } }
}

/// A window that knows its name, for readable assertions.
@MainActor
final class NamedWindow: Window {
    let name: String
    init(_ name: String, frame: Rect, screen: Screen) {
        self.name = name
        super.init(frame: frame, screen: screen)
    }
}

@MainActor
func label(_ o: AnyObject) -> String {
    if let w = o as? NamedWindow { return w.name }
    if let s = o as? Screen { return s.name }
    return "?"
}

/// An app on an in-memory backend with MAIN (1920×1080 at 0,0, primary) and EXT (1280×720 at 1920,0).
@MainActor
func makeApp(extra: Bool = true) throws -> (Application, InMemoryBackend) {
    var screens = [ScreenDescription(name: "MAIN", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), isPrimary: true)]
    if extra { screens.append(ScreenDescription(name: "EXT", frame: Rect(x: 1920, y: 0, width: 1280, height: 720))) }
    let backend = InMemoryBackend(screens: screens)
    return (try Application(backend: backend), backend)
}
