@testable import Multihead
import MultiheadInMemory
import Testing

/// Every `run()` that waits ends, on every path: a lost continuation is a test that hangs for ever.
@MainActor
@Suite("Application.run() ends on every path", .timeLimit(.minutes(1)))
struct RunLoopEndTests {
    @Test("two tasks waiting in run() on one application: one stop() ends both")
    func twoRunsOneStop() async throws {
        let (app, _) = try makeApp(extra: false)
        let first = Task { try await app.run() }
        let second = Task { try await app.run() }
        while app.loop.runContinuations.count < 2 { await Task.yield() }
        app.stop()
        try await first.value
        try await second.value
        #expect(app.loop.runContinuations.isEmpty)
    }

    @Test("a waiting run() whose task is cancelled throws CancellationError; another run() waits on until stop()")
    func cancelledRun() async throws {
        let (app, _) = try makeApp(extra: false)
        let cancelled = Task { try await app.run() }
        let kept = Task { try await app.run() }
        while app.loop.runContinuations.count < 2 { await Task.yield() }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(app.loop.runContinuations.count == 1)
        app.stop()
        try await kept.value
    }

    @Test("a run() started in a task cancelled before it waits ends at once")
    func cancelledBeforeRun() async throws {
        let (app, _) = try makeApp(extra: false)
        let t = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await app.run()
        }
        await #expect(throws: CancellationError.self) { try await t.value }
        #expect(app.loop.runContinuations.isEmpty)
    }

    @Test("a stop() before run() ends the next run() at once")
    func stopBeforeRun() async throws {
        let (app, _) = try makeApp(extra: false)
        app.stop()
        try await app.run()
    }
}
