import Multihead
import MultiheadTesting
import Testing

/// A Swift Testing trait that gives a test its own private X server: started before the test with the
/// monitors asked for, `Application.shared` attached to it (so `Screen.main` and `Window(frame:)` work as
/// written), both stopped afterwards. The server is `VirtualServer.current` inside the test. Tests with
/// this trait run one at a time, as they share `Application.shared`.
///
/// ```swift
/// @Test(.virtualServer(monitors: [.init("MAIN", "1280x720+0+0", primary: true)]))
/// @MainActor func plugsAScreen() async throws {
///     let server = try #require(VirtualServer.current)
///     try server.plug("TV", "1920x1080+1280+0")
///     try Application.shared.synchronize()
///     #expect(Screen.screens.map(\.name) == ["MAIN", "TV"])
/// }
/// ```
public struct VirtualServerTrait: TestTrait, SuiteTrait, TestScoping {
    /// Which server to start (nil: `VirtualServer.kindForThisTask()`, Xvfb unless `MULTIHEAD_KIT_KIND` names another).
    public var kind: VirtualServer.Kind?
    /// Its monitors (nil: the kit's default layout).
    public var monitors: [VirtualServer.Monitor]?
    /// Whether the test gets a private new server rather than a warm one from the pool (a test that
    /// kills or freezes its server).
    public var fresh: Bool = false

    /// Applies to every test of a suite it is given to.
    public var isRecursive: Bool { true }

    /// Starts the server, attaches the shared application, runs the test, stops both.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await SharedApplicationGate.shared.run {
            let server = try await VirtualServer.start(kind, monitors: monitors, fresh: fresh)
            var failure: (any Error)?
            do {
                try await MainActor.run { _ = try server.attachShared() }
                try await VirtualServer.$current.withValue(server) { try await function() }
            } catch {
                failure = error
            }
            await MainActor.run { server.stop() }
            if let failure { throw failure }
        }
    }
}

extension Trait where Self == VirtualServerTrait {
    /// A private X server for the test, with these monitors, and `Application.shared` attached to it.
    /// `fresh: true` starts a private new server for the test instead of taking a warm one.
    public static func virtualServer(_ kind: VirtualServer.Kind? = nil, monitors: [VirtualServer.Monitor]? = nil,
                                     fresh: Bool = false) -> Self {
        VirtualServerTrait(kind: kind, monitors: monitors, fresh: fresh)
    }
}

/// Lets one trait-scoped test at a time use `Application.shared`.
actor SharedApplicationGate {
    static let shared = SharedApplicationGate()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func run(_ body: @Sendable () async throws -> Void) async throws {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        }
        busy = true
        defer {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
        try await body()
    }
}
