/// The back-to-front order of windows: by level, then by when they were last shown.
///
/// A sorted list kept in chunks of at most `2 × chunkSize` keys, so that moving one window costs a binary
/// search over the chunks plus a shift inside one chunk (O(log n + chunkSize)), not a shift of the whole
/// list (SortedContainers' layout).
struct StackingOrder {
    struct Key: Comparable {
        var level: Double
        var sequence: UInt64
        var id: ObjectIdentifier
        static func < (a: Key, b: Key) -> Bool { (a.level, a.sequence) < (b.level, b.sequence) }
        static func == (a: Key, b: Key) -> Bool { a.level == b.level && a.sequence == b.sequence }
    }

    static let chunkSize = 64
    private var chunks: [[Key]] = []
    private var keys: [ObjectIdentifier: Key] = [:]

    /// The key of a window, if ordered.
    func key(of id: ObjectIdentifier) -> Key? { keys[id] }

    /// Places a window at (level, sequence), moving it if it was elsewhere.
    mutating func set(_ id: ObjectIdentifier, level: Double, sequence: UInt64) {
        remove(id)
        let key = Key(level: level, sequence: sequence, id: id)
        keys[id] = key
        guard !chunks.isEmpty else { chunks = [[key]]; return }
        let c = min(chunkIndex(for: key), chunks.count - 1)
        let i = Self.insertionIndex(of: key, in: chunks[c])
        chunks[c].insert(key, at: i)
        if chunks[c].count > 2 * Self.chunkSize {
            let tail = Array(chunks[c][Self.chunkSize...])
            chunks[c].removeSubrange(Self.chunkSize...)
            chunks.insert(tail, at: c + 1)
        }
    }

    /// Takes a window out of the order.
    mutating func remove(_ id: ObjectIdentifier) {
        guard let key = keys.removeValue(forKey: id) else { return }
        let c = chunkIndex(for: key)
        guard c < chunks.count else { return }
        let i = Self.insertionIndex(of: key, in: chunks[c])
        guard i < chunks[c].count, chunks[c][i].id == id else { return }
        chunks[c].remove(at: i)
        if chunks[c].isEmpty { chunks.remove(at: c) }
    }

    /// The ordered windows, back to front.
    var backToFront: [ObjectIdentifier] { chunks.flatMap { $0.map(\.id) } }

    /// The first chunk whose last key is not below `key` (binary search).
    private func chunkIndex(for key: Key) -> Int {
        var lo = 0, hi = chunks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if let last = chunks[mid].last, last < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    private static func insertionIndex(of key: Key, in chunk: [Key]) -> Int {
        var lo = 0, hi = chunk.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if chunk[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
