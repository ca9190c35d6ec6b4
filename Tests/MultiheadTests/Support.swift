import Foundation
@testable import Multihead
import MultiheadInMemory

/// Records the window and screen events of one application, in order, as "kind NAME" (through the
/// application's main-actor observations, which follow each notification).
@MainActor
final class NotificationLog {
    private(set) var entries: [String] = []
    private var observations: [EventObservation] = []
    /// Called for every entry, after it is recorded.
    var onEntry: ((String, AnyObject) -> Void)?

    private let label: @MainActor (AnyObject) -> String

    init(_ app: Application, label: @escaping @MainActor (AnyObject) -> String) {
        self.label = label
        // Weak: the log owns the observations, which must not own the log.
        let record: @MainActor (String, AnyObject) -> Void = { [weak self] kind, obj in self?.record(kind, obj) }
        observations.append(app.onWindowEvent { e in
            switch e {
            case .becameVisible(let w): record("visible", w)
            case .becameHidden(let w): record("hidden", w)
            case .becameKey(let w): record("key", w)
            case .resignedKey(let w): record("resign", w)
            }
        })
        observations.append(app.onScreenEvent { e in
            switch e {
            case .connect(let s): record("connect", s)
            case .disconnect(let s): record("disconnect", s)
            case .modeChange(let s, _): record("mode", s)
            case .brightnessChange(let s): record("brightness", s)
            case .mainChange: break
            }
        })
    }

    private func record(_ kind: String, _ obj: AnyObject) {
        entries.append("\(kind) \(label(obj))")
        onEntry?(kind, obj)
    }

    func clear() { entries.removeAll() }
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
