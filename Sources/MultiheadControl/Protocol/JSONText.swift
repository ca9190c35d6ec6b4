/// Compact JSON with sorted keys, written by hand: `JSONEncoder`'s reflection and generic metadata were a
/// twentieth of `multihead screens`' start-up. The text is what `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` writes (the tests decode it with `JSONDecoder`).
package enum JSONText: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([JSONText])
    /// Members with distinct keys, in any order (written sorted by key): pairs, not a dictionary, whose
    /// `Hashable` key would cost `multihead screens` a protocol-conformance lookup over the whole binary.
    case members([(key: String, value: JSONText)])

    /// An object from a literal, `.object(["x": .int(1)])`.
    package static func object(_ pairs: KeyValuePairs<String, JSONText>) -> JSONText {
        .members(pairs.map { (key: $0.key, value: $0.value) })
    }

    /// The compact text.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The compact text as UTF-8: appending bytes is several times cheaper than appending to a `String`.
    package var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(to: &out)
        return out
    }

    package func write(to out: inout [UInt8]) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .int(let i): out += String(i).utf8
        case .number(let d):
            // Whole numbers without a fraction, as JSONEncoder writes them; non-finite ones are not JSON.
            if !d.isFinite { out += "null".utf8 } else if d == d.rounded(), abs(d) < 1e15 { out += String(Int(d)).utf8 } else { out += d.description.utf8 }
        case .string(let s): Self.quote(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .members(let members):
            out.append(UInt8(ascii: "{"))
            // Sorted by key, as JSONEncoder's .sortedKeys.
            for (i, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.quote(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func quote(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case 0x0A: out += #"\n"#.utf8
            case 0x0D: out += #"\r"#.utf8
            case 0x09: out += #"\t"#.utf8
            case 0x08: out += #"\b"#.utf8
            case 0x0C: out += #"\f"#.utf8
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += #"\u00"#.utf8
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 15)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
