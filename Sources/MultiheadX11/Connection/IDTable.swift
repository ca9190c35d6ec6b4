/// A table keyed by X resource id (modes, outputs, CRTCs, atoms) or display address, kept sorted in an
/// array.
///
/// Not a `Dictionary`: the first `Hashable`-keyed collection a process builds costs it a scan of every
/// protocol-conformance record in the binary (Foundation's included), which was a tenth of a
/// `multihead screens` run. The tables hold a few to tens of entries, and a binary search over them is as
/// quick.
package struct IDTable<Value>: ExpressibleByDictionaryLiteral {
    package private(set) var entries: [(id: UInt, value: Value)] = []

    package init() {}

    package init(dictionaryLiteral elements: (UInt, Value)...) {
        for (id, value) in elements { self[id] = value }
    }

    /// Whether the table is empty.
    package var isEmpty: Bool { entries.isEmpty }

    /// The value for `id`; setting nil removes it.
    package subscript(id: UInt) -> Value? {
        get {
            let i = index(of: id)
            return i < entries.count && entries[i].id == id ? entries[i].value : nil
        }
        set {
            let i = index(of: id)
            let found = i < entries.count && entries[i].id == id
            switch (found, newValue) {
            case (true, let v?): entries[i].value = v
            case (true, nil): entries.remove(at: i)
            case (false, let v?): entries.insert((id, v), at: i)
            case (false, nil): break
            }
        }
    }

    /// Whether the table has `id`.
    package func contains(_ id: UInt) -> Bool { self[id] != nil }

    /// Adds `other`'s entries, which win over this table's.
    package mutating func merge(_ other: IDTable) {
        for (id, value) in other.entries { self[id] = value }
    }

    /// The first index whose id is not below `id`.
    private func index(of id: UInt) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].id < id { low = mid + 1 } else { high = mid }
        }
        return low
    }
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
