#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Files a process is writing that must not survive it: a PNG's hidden temporary file, say. A SIGINT,
/// SIGTERM or SIGHUP that ends the process removes them first.
///
/// Paths are kept in a fixed table of slots, each a buffer made once and never freed and an atomic
/// state, so that `removeAll` needs nothing but atomic loads and `unlink` (both async-signal-safe), on any
/// thread, while another thread registers or lets go. It runs as a cleanup of `ProcessSignals`, before
/// the process ends for the signal (exit 128 + the signal); a program with a handler of its own keeps it.
package enum TemporaryFiles {
    /// How many files may be registered at once; a registration past that is not protected (rare: one
    /// file is written at a time).
    static let capacity = 16
    /// The longest path a slot holds, with its NUL.
    static let pathCapacity = Int(PATH_MAX)
    private static let free = 0, filling = 1, armed = 2
    /// One registration: its state (free, filling, armed) and its path's buffer.
    private final class Slot: Sendable {
        let state = Atomic<Int>(0)
        /// The buffer's address (0 until made): an address, as an atomic pointer would not be `Sendable`.
        let buffer = Atomic<UInt>(0)
    }
    private static let slots: [Slot] = (0..<capacity).map { _ in Slot() }
    private static let installed = Atomic<Bool>(false)

    /// Registers a file to remove if a signal ends the process; returns its slot for `unregister` (nil:
    /// not protected, the table being full or the path too long).
    package static func register(_ path: String) -> Int? {
        installHandlersOnce()
        let bytes = Array(path.utf8)
        guard bytes.count < pathCapacity else { return nil }
        for i in 0..<capacity where slots[i].state.compareExchange(expected: free, desired: filling, ordering: .acquiring).exchanged {
            let buffer = buffer(i)
            for (j, b) in bytes.enumerated() { buffer[j] = CChar(bitPattern: b) }
            buffer[bytes.count] = 0
            slots[i].state.store(armed, ordering: .releasing)
            return i
        }
        return nil
    }

    /// The file is renamed or removed: a signal no longer touches it.
    package static func unregister(_ slot: Int?) {
        guard let slot else { return }
        slots[slot].state.store(free, ordering: .releasing)
    }

    /// Removes every registered file (async-signal-safe: atomic loads and `unlink` only).
    package static func removeAll() {
        for i in 0..<capacity where slots[i].state.load(ordering: .acquiring) == armed {
            if let p = UnsafePointer<CChar>(bitPattern: slots[i].buffer.load(ordering: .acquiring)) { unlink(p) }
        }
    }

    /// Slot `i`'s buffer, made on its first use and kept for the life of the process.
    private static func buffer(_ i: Int) -> UnsafeMutablePointer<CChar> {
        if let b = UnsafeMutablePointer<CChar>(bitPattern: slots[i].buffer.load(ordering: .acquiring)) { return b }
        let made = UnsafeMutablePointer<CChar>.allocate(capacity: pathCapacity)
        made.initialize(repeating: 0, count: pathCapacity)
        let (exchanged, existing) = slots[i].buffer.compareExchange(expected: 0, desired: UInt(bitPattern: made),
                                                                    ordering: .acquiringAndReleasing)
        // Another registration made it first: that one is kept (and never freed), ours goes.
        guard !exchanged, let kept = UnsafeMutablePointer<CChar>(bitPattern: existing) else { return made }
        made.deallocate()
        return kept
    }

    private static func installHandlersOnce() {
        guard installed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        ProcessSignals.addCleanup { TemporaryFiles.removeAll() }
    }
}
