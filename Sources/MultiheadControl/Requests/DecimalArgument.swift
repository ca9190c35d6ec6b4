import ArgumentParser
import Multihead

/// A number on the command line of a command the argument parser reads (`watch --timeout`): decimal only
/// (no "0x1A", no "1e3", no "inf"); negative values parse, so that `validate()` can say "must be ≥ 0"
/// instead of the parser's "Missing value". A request's numbers are `Double` fields, read by the same rule
/// (`Double(word:for:)`).
package struct DecimalArgument: ExpressibleByArgument, Sendable {
    package var value: Double

    package init(_ value: Double) { self.value = value }

    package init?(argument: String) {
        guard let v = Double(decimal: argument) else { return nil }
        value = v
    }

    /// Throws "NAME must be ≥ 0" (or the range) for a value outside `range`.
    package func check(_ name: String, in range: ClosedRange<Double>, unit: String = "") throws {
        try checkNumber(value, name, in: range, unit: unit)
    }
}

/// Throws "NAME must be ≥ 0, not V" (or "between A and B") for a value outside `range`.
package func checkNumber(_ value: Double?, _ name: String, in range: ClosedRange<Double>, unit: String = "") throws {
    guard let value else { return }
    guard value >= 0 else { throw ValidationError("\(name) must be ≥ 0, not \(String(rate: value))") }
    guard range.contains(value) else {
        throw ValidationError("\(name) must be between \(String(rate: range.lowerBound)) and \(String(rate: range.upperBound))\(unit), not \(String(rate: value))")
    }
}
