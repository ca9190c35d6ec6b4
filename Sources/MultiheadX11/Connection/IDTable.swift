/// A table keyed by X resource id (modes, outputs, CRTCs, atoms) or display address, kept sorted in
/// arrays.
///
/// Not a `Dictionary`: the first `Hashable`-keyed collection a process builds costs it a scan of every
/// protocol-conformance record in the binary (Foundation's included), which was a tenth of a
/// `multihead screens` run. The tables hold a few to tens of entries, and a binary search over them is as
/// quick.
package struct IDTable<Value>: ExpressibleByDictionaryLiteral {
    /// The ids, ascending, and each one's value at the same index. Two arrays rather than one of pairs:
    /// the search reads the ids alone, and two tables compare as two pairs of arrays do, at once where
    /// they share their storage (the monitor reader compares a read's resources with the last read's).
    package private(set) var ids: [UInt] = []
    package private(set) var values: [Value] = []

    package init() {}

    package init(dictionaryLiteral elements: (UInt, Value)...) {
        for (id, value) in elements { self[id] = value }
    }

    /// The entries in id order.
    package var entries: [(id: UInt, value: Value)] { zip(ids, values).map { (id: $0, value: $1) } }

    /// How many entries there are.
    package var count: Int { ids.count }

    /// Whether the table is empty.
    package var isEmpty: Bool { ids.isEmpty }

    /// The value for `id`; setting nil removes it.
    package subscript(id: UInt) -> Value? {
        get {
            let i = index(of: id)
            return i < ids.count && ids[i] == id ? values[i] : nil
        }
        set {
            let i = index(of: id)
            let found = i < ids.count && ids[i] == id
            switch (found, newValue) {
            case (true, let v?): values[i] = v
            case (true, nil):
                ids.remove(at: i)
                values.remove(at: i)
            case (false, let v?):
                ids.insert(id, at: i)
                values.insert(v, at: i)
            case (false, nil): break
            }
        }
    }

    /// Makes room for `n` entries: a table filled from a reply grows once.
    package mutating func reserveCapacity(_ n: Int) {
        ids.reserveCapacity(n)
        values.reserveCapacity(n)
    }

    /// Whether the table has `id`.
    package func contains(_ id: UInt) -> Bool {
        let i = index(of: id)
        return i < ids.count && ids[i] == id
    }

    /// Adds `other`'s entries, which win over this table's.
    package mutating func merge(_ other: IDTable) {
        for (id, value) in zip(other.ids, other.values) { self[id] = value }
    }

    /// The first index whose id is not below `id`.
    private func index(of id: UInt) -> Int {
        var low = 0, high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if ids[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension IDTable: Equatable where Value: Equatable {
    /// The same ids with equal values.
    package static func == (a: IDTable, b: IDTable) -> Bool { a.ids == b.ids && a.values == b.values }
}

/// A set of resource ids (or display addresses), for the same reason as the table.
package typealias IDSet = IDTable<Void>

extension IDTable where Value == Void {
    /// Adds `id`.
    package mutating func insert(_ id: UInt) { self[id] = () }
    /// Removes `id`.
    package mutating func remove(_ id: UInt) { self[id] = nil }
}

extension Array where Element == UInt {
    /// The ids without repeats, in first-seen order (a `Set` would cost what `IDTable` avoids).
    package func uniqued() -> [UInt] {
        var result: [UInt] = []
        for id in self where !result.contains(id) { result.append(id) }
        return result
    }
}
