import Foundation

/// A JSON value as a request carries it: `Sendable`, so that a connection's thread hands it to the main actor.
enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Reads one JSON text (a whole line); nil when it is not JSON.
    static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// The member `key` of an object (nil: absent, or not an object).
    subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null } else if let b = try? c.decode(Bool.self) { self = .bool(b) } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) { self = .string(s) } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// The value as the answer writes it back (an id is echoed as it came).
    var text: JSONText {
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

/// One request on the control socket, as its line of JSON gave it: which request, its fields, and the
/// `id` to echo. The fields are checked against the request's own list here; the values are checked where
/// the command line's are (the same parser and the same refusals).
struct ControlRequest: Sendable, Equatable {
    /// The requests, by the name a line gives in `"request"`.
    enum Name: String, Sendable, CaseIterable {
        case hello, lease, release, plug, unplug, mode, screens, screenshot, pixel

        /// The fields it takes: positional ones first, in the command line's order, then the options.
        var fields: (positional: [String], options: [String]) {
            switch self {
            case .hello, .release, .screens: ([], [])
            case .lease: ([], ["monitors"])
            case .plug: (["name", "geometry"], ["primary", "rate", "manufacturer", "model", "serialNumber", "physicalSize", "edid"])
            case .unplug: (["name"], ["keepPrimary"])
            case .mode: (["name", "size"], ["rate"])
            case .screenshot: ([], ["output", "screen"])
            case .pixel: (["x", "y"], ["screen"])
            }
        }

        /// Whether it stands for a command, which may also be given as that command's own arguments
        /// (`"arguments"`), and whose relative paths are the client's (`"directory"`).
        var isCommand: Bool { [.plug, .unplug, .mode, .screenshot].contains(self) }
    }

    var name: Name
    var fields: [String: JSONValue]
    /// The request's `id`, echoed in its answer (absent: none).
    var id: JSONValue?

    /// Reads one line: a JSON object with a known `"request"` and only that request's fields; else the
    /// refusal to answer with (`malformedRequest`, `unknownRequest`, `unknownField`), the `id` when one could be read.
    static func parse(_ line: [UInt8]) -> Result<ControlRequest, ControlRefusal> {
        guard let value = JSONValue.parse(line) else {
            return .failure(ControlRefusal(code: "malformedRequest", message: "the line is not JSON: one JSON object a line, such as {\"request\":\"screens\"}"))
        }
        guard case .object(var members) = value else {
            return .failure(ControlRefusal(code: "malformedRequest", message: "a request is a JSON object, such as {\"request\":\"screens\"}"))
        }
        let id = members.removeValue(forKey: "id")
        guard case .string(let text)? = members.removeValue(forKey: "request") else {
            return .failure(ControlRefusal(code: "malformedRequest", message: "the object has no \"request\" string", id: id))
        }
        guard let name = Name(rawValue: text) else {
            let known = Name.allCases.map(\.rawValue).joined(separator: ", ")
            return .failure(ControlRefusal(code: "unknownRequest", message: "no request \"\(text.terminalEscaped)\"; the requests are \(known)", id: id))
        }
        let allowed = Set(name.fields.positional + name.fields.options + (name.isCommand ? ["arguments", "directory"] : []))
        if let stray = members.keys.sorted().first(where: { !allowed.contains($0) }) {
            let list = allowed.isEmpty ? "none" : allowed.sorted().joined(separator: ", ")
            return .failure(ControlRefusal(code: "unknownField", message: "\(name.rawValue) has no field \"\(stray.terminalEscaped)\"; its fields: \(list)", id: id))
        }
        return .success(ControlRequest(name: name, fields: members, id: id))
    }

    /// The command line that says the same (positional fields in order, `serialNumber` as
    /// `--serial-number`, `true` as a flag, `false` as nothing): the command's own parser then checks
    /// it, so a request is refused exactly where the command would be. A field of the wrong type, or a
    /// missing positional one, is `invalidField`.
    ///
    /// `"arguments"` gives the command line itself (what follows the command's name, as a shell passes
    /// it: what the CLI sends when `MULTIHEAD_CONTROL` is set), instead of the fields.
    func arguments() throws(ControlRefusal) -> [String] {
        if let given = fields["arguments"] {
            guard case .array(let items) = given, case let texts = items.compactMap(\.string), texts.count == items.count else {
                throw ControlRefusal(code: "invalidField", message: "\(name.rawValue): \"arguments\" is a list of strings", id: id)
            }
            let others = Set(fields.keys).subtracting(["arguments", "directory"])
            guard others.isEmpty else {
                throw ControlRefusal(code: "invalidField", message: "\(name.rawValue): \"arguments\" stands for every other field; drop \(others.sorted().joined(separator: ", "))", id: id)
            }
            return texts
        }
        var argv: [String] = []
        for key in name.fields.positional {
            guard let v = fields[key] else { throw ControlRefusal(code: "invalidField", message: "\(name.rawValue) needs \"\(key)\"", id: id) }
            argv.append(try Self.argument(v, key, of: name, id: id))
        }
        // Options after "--"? No: positional values that begin with "-" are refused by the parser as they
        // are on the command line (a negative geometry), so the order is the command line's.
        for key in name.fields.options.sorted() {
            guard let v = fields[key], v != .null else { continue }
            let flag = "--" + Self.kebab(key)
            switch v {
            case .bool(true): argv.append(flag)
            case .bool(false): continue
            default: argv += [flag, try Self.argument(v, key, of: name, id: id)]
            }
        }
        return argv
    }

    /// A string or a number as the command line writes it.
    private static func argument(_ v: JSONValue, _ key: String, of name: Name, id: JSONValue?) throws(ControlRefusal) -> String {
        switch v {
        case .string(let s): return s
        case .number(let n) where n.isFinite: return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        default: throw ControlRefusal(code: "invalidField", message: "\(name.rawValue): \"\(key)\" must be a string or a number", id: id)
        }
    }

    /// `serialNumber` → `serial-number`.
    static func kebab(_ key: String) -> String {
        key.reduce(into: "") { out, c in
            if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) }
        }
    }
}

/// A request refused before it ran: an answer with status 64, a stable code and the reason.
struct ControlRefusal: Error, Sendable, Equatable {
    var code: String
    var message: String
    var id: JSONValue? = nil
}
