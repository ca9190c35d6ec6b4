import Glibc

/// The last read's replies kept beside the values made of them: a reply whose bytes are the same as last
/// time's (all but its sequence number) gives the same value again, not parsed a second time. A re-read of
/// a server whose state did not change (the common case) makes no new Swift value of its replies, and hands
/// back last time's tables as they are, so that the monitor reader's comparison of the two reads meets the
/// same arrays. Whatever changed (a mode, a CRTC, an EDID, the configuration timestamp inside each reply)
/// changes the bytes, and the reply is parsed again.
extension RandRBatch {
    /// One reader's memo (`MonitorReader` owns it), by request kind and object id: only the objects the
    /// last read found.
    package struct ReplyMemo {
        var monitors = Kept<[RandR.MonitorInfo]>()
        var resources = Kept<ResourceList>()
        var outputs = Kept<RandR.OutputInfo>()
        var edids = Kept<[UInt8]?>()
        var crtcs = Kept<RandR.CrtcInfo>()

        package init() {}

        /// Replies whose value was reused, and replies parsed, so far (tests count them).
        package var hits: Int { monitors.hits + resources.hits + outputs.hits + edids.hits + crtcs.hits }
        package var misses: Int { monitors.misses + resources.misses + outputs.misses + edids.misses + crtcs.misses }
    }

    /// The values of one request kind's replies by object id, each with the bytes it was made of.
    struct Kept<Value> {
        /// The values as last made.
        private(set) var table: IDTable<Value> = [:]
        /// Each value's reply, its sequence number zeroed.
        private var replies: IDTable<[UInt8]> = [:]
        private(set) var hits = 0, misses = 0

        /// Brings `id`'s value up to date with its `reply`: parsed again when the reply is not byte for byte
        /// last time's, or when `force`. Whether the value changed.
        @discardableResult
        mutating func update<R>(_ id: UInt, _ reply: UnsafeMutablePointer<R>, force: Bool = false,
                                parse: (UnsafeMutablePointer<R>) -> Value) -> Bool {
            // A reply is 32 bytes and `length` 4-byte words more; the sequence number is bytes 2 and 3.
            let raw = UnsafeRawBufferPointer(start: UnsafeRawPointer(reply),
                                             count: 32 + 4 * Int(UnsafeRawPointer(reply).loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
            if !force, let kept = replies[id], Self.same(kept, raw), table.contains(id) {
                hits += 1
                return false
            }
            misses += 1
            var bytes = Array(raw)
            bytes[2] = 0
            bytes[3] = 0
            table[id] = parse(reply)
            replies[id] = bytes
            return true
        }

        /// Forgets `id`'s value (no reply came for it). Whether it had one.
        @discardableResult
        mutating func remove(_ id: UInt) -> Bool {
            guard table.contains(id) else { return false }
            table[id] = nil
            replies[id] = nil
            return true
        }

        /// Forgets the objects not in `ids` (the ones asked about now): gone from the server.
        mutating func keep(only ids: [UInt32]) {
            if table.count == ids.count && zip(table.ids, ids).allSatisfy({ $0 == UInt($1) }) { return }
            for id in table.ids where !ids.contains(UInt32(truncatingIfNeeded: id)) {
                table[id] = nil
                replies[id] = nil
            }
        }

        private static func same(_ kept: [UInt8], _ new: UnsafeRawBufferPointer) -> Bool {
            guard kept.count == new.count, new.count >= 4, kept[0] == new[0], kept[1] == new[1] else { return false }
            return kept.withUnsafeBytes { old in
                guard let a = old.baseAddress, let b = new.baseAddress else { return false }
                return memcmp(a + 4, b + 4, new.count - 4) == 0
            }
        }
    }
}
