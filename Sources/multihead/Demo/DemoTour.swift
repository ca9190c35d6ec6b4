import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11

/// The headless tour: a private server with two screens, then plug a third, change its mode, click a
/// control, unplug, plug a 2× laptop panel; after each step a PNG per screen, and at the end the event log,
/// in `directory`.
@MainActor
struct DemoTour {
    let directory: String
    /// The server the tour plays on.
    let kind: VirtualServer.Kind
    /// Keep the server and the windows up after the tour, until a signal ends the program.
    var stay = false

    func run() async throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let names = switch kind {
        case .xvfb: ["VIRTUAL-1", "VIRTUAL-2", "VIRTUAL-3"]
        case .xorgDummy: ["DUMMY0", "DUMMY1", "DUMMY2"]
        case .xorg, .wayland: ["DP-1", "DP-2", "HDMI-1"]
        }
        let server = try await VirtualServer.start(kind, monitors: [
            .init(names[0], "1920x1080+0+0", primary: true), .init(names[1], "1280x720+1920+0"),
        ], fresh: true)
        defer { server.stop() }
        let backend = X11Backend(display: server.display)
        let app = try Application(backend: backend)
        let demo = DemoController(app: app)
        // Nobody watches the tour's scene: 10 frames a second make its pictures (a sixth of the CPU).
        demo.sceneFramesPerSecond = 10
        demo.launch()
        app.launch()
        let serverName = switch kind {
        case .xvfb: "Xvfb"
        case .xorgDummy: "Xorg+dummy"
        case .xorg: "Xorg with Multihead's driver"
        case .wayland: "Xwayland in Multihead's Wayland compositor"
        }
        try StandardOutput.line("multihead demo: a private \(serverName) at \(server.display); pictures and events in \(directory)/")

        try finish(1, "launch", demo, backend, "\(app.screens.count) screens, a main window and a placeholder on \(names[1])")

        demo.step = "plug"
        if kind == .xorg {
            // A cable: a monitor that says who it is and offers two more modes.
            try server.plug(names[2], "1024x768+3200+0", monitor: .init(manufacturer: "DEL", model: "DELL P1917S",
                                                                         modes: [ScreenMode(width: 1280, height: 1024), ScreenMode(width: 800, height: 600)]))
        } else {
            try server.plug(names[2], "1024x768+3200+0")
        }
        try await wait(app, "the window on \(names[2])") { demo.externalWindows[names[2]] != nil }
        // Its GL scene drew a frame (or found no EGL, and shows its background).
        try await wait(app, "the GL scene on \(names[2])") {
            demo.sceneWindows[names[2]].map { $0.glView.framesDrawn > 1 || $0.glView.renderingError != nil } ?? false
        }
        let gl = demo.sceneWindows[names[2]]?.glView.renderingError.map { "; its GL scene shows its background only (\($0))" }
            ?? " and a GL scene (a turning triangle under a HUD)"
        try finish(2, "plug", demo, backend, "plugged \(names[2]) 1024x768 at 3200,0; it got a placeholder window" + gl)

        demo.step = "mode"
        let third = app.screen(named: names[2])
        let size = kind == .xorgDummy ? Size(width: 800, height: 600) : Size(width: 1280, height: 1024)
        if kind == .xvfb {
            try server.plug(names[2], "1280x1024+3200+0")
        } else {
            try server.setOutputMode(names[2], width: Int(size.width), height: Int(size.height))
        }
        try await wait(app, "the new mode of \(names[2])") { third?.frame.size == size }
        try finish(3, "mode", demo, backend, "\(names[2]) changed mode to \(size); its window follows")

        demo.step = "click"
        guard let control = demo.mainController.controls.first, let main = demo.mainWindow else {
            throw DemoError.failed("the main window has no controls")
        }
        let center = control.convert(Point(x: control.bounds.midX, y: control.bounds.midY), to: nil)
        let desktop = Point(x: center.x + main.screen.frame.minX, y: center.y + main.screen.frame.minY)
        try server.tap(at: desktop)
        try await wait(app, "the click on the \(control.title) control") { control.taps == 1 && !control.isFading }
        try finish(4, "click", demo, backend, "clicked the \(control.title) control at \(desktop); it changed colour")

        demo.step = "unplug"
        try server.unplug(names[2])
        try await wait(app, "the release of \(names[2])'s window") { demo.externalWindows[names[2]] == nil && app.screens.count == 2 }
        try finish(5, "unplug", demo, backend, "unplugged \(names[2]); its window was hidden and released")

        demo.step = "hidpi"
        // A laptop's panel: 15.6 inches of 3840×2160, 283 pixels per inch, so 2× by its density. The
        // placeholder is 1920×1080 points, drawn at 3840×2160 pixels.
        let panel = Size(width: 344, height: 194)
        if kind == .xvfb {
            try server.plug(names[2], "3840x2160+3200+0", physicalSize: panel)
        } else {
            try server.plug(names[2], "3840x2160+3200+0", monitor: .init(manufacturer: "LGD", model: "UHD 15.6in", physicalSize: panel))
        }
        try await wait(app, "the 2× window on \(names[2])") {
            demo.externalWindows[names[2]] != nil && app.screen(named: names[2])?.scale == 2
        }
        try finish(6, "hidpi", demo, backend, "plugged a 15.6-inch 3840x2160 panel as \(names[2]): scale 2, its placeholder drawn at 2x")

        let log = JSONEncoder()
        log.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Written whole (a temporary file renamed), so a failure never leaves half a log.
        try log.encode(demo.events).write(to: URL(fileURLWithPath: directory + "/events.json"), options: .atomic)
        try StandardOutput.line("multihead demo: done; \(demo.events.count) events in \(directory)/events.json")
        if stay {
            try StandardOutput.line("DISPLAY=\(server.display)")
            try StandardOutput.line("XAUTHORITY=\(server.authorityFile)")
            try StandardOutput.line("multihead demo: staying up; SIGINT or SIGTERM stops the server and exits")
            // The kit's signal handler stops the server and exits 128 + the signal.
            while true { try await Task.sleep(for: .seconds(3600)) }
        }
    }

    private func wait(_ app: Application, _ what: String, until condition: () -> Bool) async throws {
        guard await app.run(until: condition, timeout: .seconds(10)) else {
            if let e = app.connectionError { throw e }
            throw DemoError.failed("timed out waiting for \(what)")
        }
    }

    /// Pushes what changed, writes a PNG per screen and prints the step's one-line summary.
    private func finish(_ n: Int, _ name: String, _ demo: DemoController, _ backend: X11Backend, _ what: String) throws {
        demo.app.flush()
        var files: [String] = []
        for screen in demo.app.screens {
            let file = "\(directory)/step\(n)-\(name)-\(screen.name).png"
            try backend.screenshot(of: screen).writePNG(to: file)
            files.append((file as NSString).lastPathComponent)
        }
        let events = demo.events.filter { $0.step == name }.map { "\($0.event) \($0.screen)" }
        try StandardOutput.line("step \(n) \(name): \(what)" + (events.isEmpty ? "" : " [\(events.joined(separator: ", "))]")
              + "; \(files.count) PNGs")
    }
}

/// Why the demo stopped.
enum DemoError: Error, CustomStringConvertible {
    case failed(String)
    var description: String {
        switch self { case .failed(let why): "demo failed: \(why)" }
    }
}
