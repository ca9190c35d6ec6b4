import Foundation

/// Process-wide state that any thread may reach, behind one lock: every read and write goes through
/// `withLock`, so the state itself is never shared unguarded.
///
/// A pthread mutex (`NSLock`) rather than `Synchronization.Mutex`: on Linux a contended `Mutex` hands
/// itself over in the kernel (a priority-inheriting futex) where ThreadSanitizer sees no ordering, and it
/// reported accesses under it as races. Not recursive: `body` must not take the same lock again, nor call
/// into Xlib where a handler could.
package final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    /// Guards `state` from now on.
    package init(_ state: State) { self.state = state }

    /// Runs `body` with the state, holding the lock.
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
