import Foundation
@testable import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
import MultiheadTestingTraits
@testable import MultiheadX11
import Testing

/// A backend that wraps another and passes on only what the protocol requires: the defaulted
/// requirements never reach the X11 backend inside.
@MainActor
final class ForwardingBackend: DisplayBackend {
    let inner: X11Backend
    init(_ inner: X11Backend) { self.inner = inner }
    func start(input: BackendInput) throws -> [ScreenDescription] { try inner.start(input: input) }
    func readScreens() throws -> [ScreenDescription] { try inner.readScreens() }
    func processPendingEvents() { inner.processPendingEvents() }
    func stop() { inner.stop() }
    func setMode(_ mode: ScreenMode, forScreenNamed name: String) throws { try inner.setMode(mode, forScreenNamed: name) }
    func setBrightness(_ value: Double, forScreenNamed name: String) throws { try inner.setBrightness(value, forScreenNamed: name) }
    func present(_ scene: Scene) { inner.present(scene) }
    func focus(_ window: Window?) { inner.focus(window) }
}

@MainActor
// Serialized: the two hundred trait tests then queue for the shared application one at a time, and other
// trait tests of the run wait for one of them, not for all.
@Suite("Lifetimes on X: released windows, wrapping backends, a server per test", .serialized, .timeLimit(.minutes(5)))
struct LifetimeOnX11Tests {
    @Test("a wrapping backend that passes on only the required calls: a click and a DestroyNotify for a released window reach nothing, its X window goes at the next complete scene")
    func forwardingBackend() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "800x600+0+0", primary: true)])
        defer { server.stop() }
        let inner = X11Backend(display: server.display)
        let app = try Application(backend: ForwardingBackend(inner))
        defer { app.terminate() }
        var taps = 0
        var w: Window? = Window(frame: Rect(x: 0, y: 0, width: 200, height: 200), screen: app.mainScreen)
        let button = Button(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        button.addAction(Action { _ in taps += 1 }, for: .touchUpInside)
        w?.addSubview(button)
        w?.isHidden = false
        try app.synchronize()
        let xid = try #require(w.flatMap { inner.xWindow(for: $0) })
        // Released: the inner backend never hears of it, and its table still has the X window.
        w = nil
        #expect(inner.presenter?.entries.count == 1)
        // A click where it was, and its X window destroyed by another client, before any flush.
        try server.tap(at: Point(x: 50, y: 50))
        try server.controlConnection().destroyWindow(xid)
        try app.synchronize()
        #expect(taps == 0)
        // The next complete scene takes the entry away; a new window (perhaps at the same address) gets its own.
        let next = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), screen: app.mainScreen)
        next.backgroundColor = .green
        next.isHidden = false
        try app.synchronize()
        #expect(inner.presenter?.entries.count == 1)
        #expect(inner.xWindow(for: next).map { $0 != xid } ?? false)
        let shot = try inner.screenshot(of: app.mainScreen)
        #expect(shot.pixel(x: 50, y: 50) == 0x00FF00)
    }

    @Test("a window released on another thread while the X backend draws: its X window goes, nothing else does")
    func releasedOffMainOnX() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "800x600+0+0", primary: true)])
        defer { server.stop() }
        let app = try server.makeApplication()
        defer { app.terminate() }
        let backend = try #require(app.backend as? X11Backend)
        for _ in 0..<10 {
            // Made inside a closure: no local of the test holds it once the box has it.
            let box = { () -> LifetimeTestsBox in
                let w = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300), screen: app.mainScreen)
                w.backgroundColor = .blue
                w.isHidden = false
                return LifetimeTestsBox(w)
            }()
            try app.synchronize()
            let release = Task.detached { box.drop() }
            app.flush()
            await release.value
            // Gone from the list at once (weak); its deinit, which takes its X window away, reaches the
            // main actor in a later turn.
            #expect(app.windows.isEmpty)
            while backend.presenter?.entries.isEmpty == false { await Task.yield() }
            try app.synchronize()
            #expect(try backend.screenshot(of: app.mainScreen).pixel(x: 10, y: 10) != 0x0000FF)
        }
    }

    /// Each of these gets a server from the trait; the read source of each test's backend may still be
    /// queued when the backend goes (it was read through an unowned reference, and crashed).
    /// Two hundred in a plain build; twenty under a sanitizer, where each start costs several times as much
    /// and the suite's other tests, queued behind these starts, would run out of their time limits.
    nonisolated static let traitTestCount = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") == nil
        && dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") == nil ? 200 : 20

    @Test("two hundred tests with a server each from the trait (twenty under a sanitizer)",
          .virtualServer(monitors: [.init("MAIN", "640x480+0+0", primary: true)]),
          arguments: 0..<traitTestCount)
    func manyTraitServers(i: Int) throws {
        let w = Window(frame: Rect(x: 0, y: 0, width: 64, height: 48))
        w.isHidden = false
        try Application.shared.synchronize()
        #expect(Screen.main.name == "MAIN")
        #expect(Application.shared.windows.count == 1)
    }
}

/// A window handed to another thread to release.
final class LifetimeTestsBox: @unchecked Sendable {
    private var window: Window?
    private let lock = NSLock()
    init(_ window: Window) { self.window = window }
    func drop() {
        lock.lock()
        let w = window
        window = nil
        lock.unlock()
        _ = w.map(ObjectIdentifier.init)
    }
}
