/// A JSON value as a request or an answer of the control socket carries it: `Sendable`, so that a
/// connection's thread hands it to the main actor.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (JSON has one kind).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, by its members' keys.
    case object([String: JSONValue])

    /// Reads one JSON text (a whole line) strictly (`JSONParser`); nil when it is not one.
    package static func parse(_ bytes: [UInt8]) -> JSONValue? { try? JSONParser.parse(bytes) }

    /// The member `key` of an object (nil: absent, or not an object).
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// The value as the answer writes it back (an id is echoed as it came).
    package var text: JSONText {
        switch self {
        case .null: .null
        case .bool(let b): .bool(b)
        case .number(let n): .number(n)
        case .string(let s): .string(s)
        case .array(let a): .array(a.map(\.text))
        case .object(let o): .members(o.map { (key: $0.key, value: $0.value.text) })
        }
    }
}

extension JSONValue {
    /// A string's text (nil: another kind of value).
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A whole number (nil: another kind of value, or a fraction).
    public var int: Int? {
        if case .number(let n) = self, n == n.rounded(), abs(n) < 1e15 { return Int(n) }
        return nil
    }
}
