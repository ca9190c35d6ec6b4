/// A JSON value as a request carries it: `Sendable`, so that a connection's thread hands it to the main actor.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Reads one JSON text (a whole line) strictly (`JSONParser`); nil when it is not one.
    package static func parse(_ bytes: [UInt8]) -> JSONValue? { try? JSONParser.parse(bytes) }

    /// The member `key` of an object (nil: absent, or not an object).
    package subscript(key: String) -> JSONValue? {
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
