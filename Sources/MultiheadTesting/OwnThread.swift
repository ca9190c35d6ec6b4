import Foundation

/// Runs a blocking call (reading a child's pipe, waiting for its exit) on a thread of its own, so that it
/// never holds one of the few threads of Swift's cooperative pool: with two cores there are two, and a
/// test suite that blocks them stalls every other task.
package func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// `onOwnThread` for a call that throws.
package func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await onOwnThread { Result { try body() } }.get()
}
