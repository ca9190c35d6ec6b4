import ArgumentParser
import Multihead

/// A number on the command line: decimal only (no "0x1A", no "1e3", no "inf"); negative values parse, so
/// that `validate()` can say "must be ≥ 0" instead of the parser's "Missing value".
package struct DecimalArgument: ExpressibleByArgument, Sendable {
    package var value: Double

    package init(_ value: Double) { self.value = value }

    package init?(argument: String) {
        guard let v = Double(decimal: argument) else { return nil }
        value = v
    }

    /// Throws "NAME must be ≥ 0" (or the range) for a value outside `range`.
    package func check(_ name: String, in range: ClosedRange<Double>, unit: String = "") throws {
        guard value >= 0 else { throw ValidationError("\(name) must be ≥ 0, not \(String(rate: value))") }
        guard range.contains(value) else {
            throw ValidationError("\(name) must be between \(String(rate: range.lowerBound)) and \(String(rate: range.upperBound))\(unit), not \(String(rate: value))")
        }
    }
}

extension DecimalArgument: ControlFieldValue {
    package static var fieldType: ControlFieldType { .number }
    package var fieldValue: JSONText? { .number(value) }
}
