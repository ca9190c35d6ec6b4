import Glibc
@testable import Multihead
import MultiheadTesting
import MultiheadX11
import Testing

/// A private server (its default monitors, or `monitors`) and an application on it, with the X11 backend
/// whose counters the frame tests read.
@MainActor
func startX11App(monitors: [VirtualServer.Monitor]? = nil) async throws -> (VirtualServer, Application, X11Backend) {
    let server = try await VirtualServer.start(monitors: monitors)
    let app = try server.makeApplication()
    return (server, app, try #require(app.backend as? X11Backend))
}

/// A white window of `width`×`height` at the main screen's origin holding a 50×50 blue square at (0, 100),
/// shown and flushed: what the animation tests move.
@MainActor
func showSquare(in app: Application, width: Double, height: Double) -> (window: Window, square: View) {
    let w = Window(frame: Rect(x: 0, y: 0, width: width, height: height), screen: app.mainScreen)
    w.backgroundColor = .white
    let square = View(frame: Rect(x: 0, y: 100, width: 50, height: 50))
    square.backgroundColor = .blue
    w.addSubview(square)
    w.isHidden = false
    app.flush()
    return (w, square)
}

/// An application's animation clock, moved by the test: a frame's progress is then a fact, not
/// a moment to catch under load. `restore()` puts the real clock back.
final class AnimationClock {
    /// Seconds, as the animator reads them.
    var now: Double
    private let real: () -> Double

    private weak var application: Application?

    @MainActor
    init(at start: Double, of app: Application) {
        now = start
        application = app
        real = app.frameClock.animator.now
        app.frameClock.animator.now = { self.now }
    }

    @MainActor
    func restore() { application?.frameClock.animator.now = real }
}

/// A window of one colour (filled by the server).
@MainActor
func solidWindow(_ app: Application, _ screen: Screen, _ frame: Rect, _ color: Color) -> Window {
    let w = Window(frame: frame, screen: screen)
    w.backgroundColor = color
    return w
}

/// A window whose pixels are drawn and sent by the app (a one-colour window is filled by the server): a
/// 2×2 black view in its top-left corner.
@MainActor
func drawnWindow(_ app: Application, _ screen: Screen, _ frame: Rect, _ color: Color) -> Window {
    let w = solidWindow(app, screen, frame, color)
    let mark = View(frame: Rect(x: 0, y: 0, width: 2, height: 2))
    mark.backgroundColor = .black
    w.addSubview(mark)
    return w
}

/// A child's output pipe read a line at a time: blocking reads (call it off the main actor), its own buffer.
final class PipeLines: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(_ fd: Int32) { self.fd = fd }

    /// The next line, or nil once the pipe has ended.
    func next() -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            let n = read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<n])
        }
    }
}
