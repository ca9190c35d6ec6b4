import Foundation
import Multihead

/// One line of the demo's event log.
struct DemoEvent: Codable {
    var step: String
    var event: String
    var screen: String
    var frame: String
    var mode: String?
}

/// The seeds' external-display example: a main window on the main screen, and a placeholder window on
/// every external screen, made when it connects (after switching it to its preferred mode) and released
/// when it disconnects.
@MainActor
final class DemoController {
    let app: Application
    private(set) var mainWindow: DemoWindow?
    private(set) var mainController = MainViewController()
    private(set) var externalWindows: [String: Window] = [:]
    /// The GL scene of each screen plugged while the demo runs.
    private(set) var sceneWindows: [String: SceneWindow] = [:]
    /// The scenes' frame rate: 0, their screen's (on a desktop); the headless tour, which only takes
    /// pictures, asks for fewer.
    var sceneFramesPerSecond = 0
    private(set) var events: [DemoEvent] = []
    var step = "launch"
    var onQuit: (() -> Void)?
    var onEvent: ((DemoEvent) -> Void)?
    private var observation: EventObservation?

    init(app: Application) {
        self.app = app
    }

    /// Registers for connect and disconnect (Listing 2-1), makes the main window, and sets up every external
    /// screen already there (Listing 2-3).
    func launch() {
        // The application's own events, on the main actor: no NotificationCenter filtering, no isolation dance.
        observation = app.onScreenEvent { [weak self] event in self?.handle(event) }
        let main = app.mainScreen
        let window = DemoWindow(frame: main.bounds, screen: main)
        window.rootViewController = mainController
        window.onQuit = { [weak self] in self?.onQuit?() }
        mainWindow = window
        window.makeKeyAndVisible()
        for screen in app.screens.dropFirst() { attach(screen) }
        refreshMain()
    }

    private func handle(_ e: ScreenEvent) {
        let screen = e.screen
        switch e {
        case .connect:
            attach(screen)
            addScene(screen)
        case .disconnect: detach(screen)
        case .modeChange: resize(screen)
        case .brightnessChange, .mainChange: return
        }
        let event = DemoEvent(step: step, event: e.name, screen: screen.name, frame: "\(screen.frame)",
                              mode: screen.currentMode.map { "\($0)" })
        events.append(event)
        onEvent?(event)
        refreshMain()
    }

    /// Switches the screen to its preferred mode, then shows a placeholder window filling it.
    private func attach(_ screen: Screen) {
        guard externalWindows[screen.name] == nil, screen !== mainWindow?.screen else { return }
        if let preferred = screen.preferredMode, preferred != screen.currentMode {
            do { try screen.setCurrentMode(preferred) } catch {
                Application.logger.warning("could not switch \(screen.name) to \(preferred): \(error)")
            }
        }
        let window = Window(frame: screen.bounds, screen: screen)
        window.addSubview(PlaceholderView(frame: window.bounds))
        // Static content, not for events: shown without making it key, as Listing 2-3 does.
        window.isHidden = false
        externalWindows[screen.name] = window
    }

    /// A screen plugged while the demo runs also gets the GL scene, above its placeholder.
    private func addScene(_ screen: Screen) {
        guard externalWindows[screen.name] != nil, sceneWindows[screen.name] == nil else { return }
        let window = SceneWindow(screen: screen)
        window.glView.preferredFramesPerSecond = sceneFramesPerSecond
        window.windowLevel = .normal + 1
        window.isHidden = false
        sceneWindows[screen.name] = window
    }

    /// Hides and releases the screen's windows (Listing 2-2).
    private func detach(_ screen: Screen) {
        sceneWindows.removeValue(forKey: screen.name)?.isHidden = true
        guard let window = externalWindows.removeValue(forKey: screen.name) else { return }
        window.isHidden = true
    }

    private func resize(_ screen: Screen) {
        if let window = externalWindows[screen.name] {
            // The placeholder re-centres its label in layoutSubviews.
            window.frame = screen.bounds
            for v in window.subviews { v.frame = window.bounds }
            sceneWindows[screen.name]?.frame = SceneWindow.frame(on: screen)
        } else if screen === mainWindow?.screen {
            mainWindow?.frame = screen.bounds
        }
    }

    private func refreshMain() { mainController.show(app.screens) }
}
