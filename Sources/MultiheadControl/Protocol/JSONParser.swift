/// A strict reader of one JSON text (RFC 8259) for the control socket. Strict where Foundation's decoder is
/// lenient in ways that matter to a protocol others sit in front of: an object that names a key twice is
/// refused (Foundation keeps the first, Python's `json` the last: a proxy and the server would read two
/// different requests), and so is nesting past `depthLimit` (a line of a million `[` would otherwise
/// recurse that deep).
package struct JSONParser {
    /// Why a text is not one this parser takes, with the byte offset where it found out.
    package struct Failure: Error, Equatable {
        package var reason: String
        package var offset: Int
    }

    /// The deepest nesting of arrays and objects taken: no request needs more than three.
    package static let depthLimit = 32

    private let bytes: [UInt8]
    private var at = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The value of a whole text (white space around it allowed, nothing else).
    package static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var p = JSONParser(bytes)
        let value = try p.value()
        p.skipSpace()
        guard p.at == bytes.count else { throw p.fail("text after the JSON value") }
        return value
    }

    private func fail(_ reason: String) -> Failure { Failure(reason: reason, offset: at) }

    private mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        skipSpace()
        guard at < bytes.count else { throw fail("the text ends where a value should be") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try nested { (p: inout JSONParser) throws(Failure) in try p.object() }
        case UInt8(ascii: "["): return try nested { (p: inout JSONParser) throws(Failure) in try p.array() }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func nested(_ body: (inout JSONParser) throws(Failure) -> JSONValue) throws(Failure) -> JSONValue {
        depth += 1
        guard depth <= Self.depthLimit else { throw fail("nested deeper than \(Self.depthLimit) levels") }
        defer { depth -= 1 }
        return try body(&self)
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let w = Array(word.utf8)
        guard bytes.count - at >= w.count, Array(bytes[at..<(at + w.count)]) == w else { throw fail("not a JSON value") }
        at += w.count
    }

    private mutating func object() throws(Failure) -> JSONValue {
        at += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
            at += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw fail("an object's key must be a string") }
            let key = try string()
            guard members[key] == nil else { throw fail("the key \"\(key.terminalEscaped)\" appears twice in one object") }
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw fail("a ':' must follow an object's key") }
            at += 1
            members[key] = try value()
            skipSpace()
            guard at < bytes.count else { throw fail("the object is not closed") }
            if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
            guard bytes[at] == UInt8(ascii: "}") else { throw fail("',' or '}' expected in an object") }
            at += 1
            return .object(members)
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        at += 1
        var items: [JSONValue] = []
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
            at += 1
            return .array(items)
        }
        while true {
            items.append(try value())
            skipSpace()
            guard at < bytes.count else { throw fail("the array is not closed") }
            if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
            guard bytes[at] == UInt8(ascii: "]") else { throw fail("',' or ']' expected in an array") }
            at += 1
            return .array(items)
        }
    }

    /// A number as JSON writes it (no leading zeros, no '+', no NaN or Infinity), read as a Double.
    private mutating func number() throws(Failure) -> Double {
        let start = at
        func digits() -> Int {
            let from = at
            while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }
            return at - from
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        let integerStart = at
        let whole = digits()
        guard whole > 0 else { throw fail("not a JSON value") }
        guard whole == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw fail("a number with a leading zero") }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            guard digits() > 0 else { throw fail("a number's fraction has no digits") }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digits() > 0 else { throw fail("a number's exponent has no digits") }
        }
        guard let n = Double(String(decoding: bytes[start..<at], as: UTF8.self)), n.isFinite else {
            throw fail("a number too large for a double")
        }
        return n
    }

    /// A string: its escapes decoded, its bytes valid UTF-8, no raw control characters.
    private mutating func string() throws(Failure) -> String {
        at += 1
        var out: [UInt8] = []
        while true {
            guard at < bytes.count else { throw fail("the string is not closed") }
            let b = bytes[at]
            at += 1
            switch b {
            case UInt8(ascii: "\""):
                guard let s = String(validating: out, as: UTF8.self) else { throw fail("a string that is not UTF-8") }
                return s
            case 0..<0x20: throw fail("a control character inside a string")
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { throw fail("the string is not closed") }
                let e = bytes[at]
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out += try unicodeEscape()
                default: throw fail("an unknown escape in a string")
                }
            default: out.append(b)
            }
        }
    }

    /// `\uXXXX` (after the `u`), with a surrogate pair's second half: the scalar as UTF-8.
    private mutating func unicodeEscape() throws(Failure) -> [UInt8] {
        var code = try hex4()
        if (0xD800...0xDBFF).contains(code) {
            guard bytes.count - at >= 6, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                throw fail("a lone surrogate in a string")
            }
            at += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("a lone surrogate in a string") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw fail("a lone surrogate in a string") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - at >= 4, let v = UInt32(String(decoding: bytes[at..<(at + 4)], as: UTF8.self), radix: 16),
              bytes[at..<(at + 4)].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") }) else {
            throw fail("\\u needs four hexadecimal digits")
        }
        at += 4
        return v
    }
}
