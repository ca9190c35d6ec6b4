/// A JSON value as a request carries it: `Sendable`, so that a connection's thread hands it to the main actor.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Reads one JSON text (a whole line) strictly (`JSONParser`); nil when it is not one.
    static func parse(_ bytes: [UInt8]) -> JSONValue? { try? JSONParser.parse(bytes) }

    /// The member `key` of an object (nil: absent, or not an object).
    subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
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
/// `id` to echo. Each field's name and type are checked against the request's own list here; the values
/// are checked where the command line's are (the same parser and the same refusals).
struct ControlRequest: Sendable, Equatable {
    /// What a field's value must be.
    enum FieldType: String, Sendable {
        case string = "a string"
        case number = "a number"
        case wholeNumber = "a whole number from 0"
        case flag = "true or false"
        case strings = "a list of strings"

        /// Whether `value` is of this type.
        func admits(_ value: JSONValue) -> Bool {
            switch (self, value) {
            case (.string, .string), (.number, .number), (.flag, .bool): true
            case (.wholeNumber, .number(let n)): n >= 0 && n == n.rounded() && n < 1e15
            case (.strings, .array(let items)): items.allSatisfy { $0.string != nil }
            default: false
            }
        }
    }

    /// The requests, by the name a line gives in `"request"`.
    enum Name: String, Sendable, CaseIterable {
        case hello, lease, release, plug, unplug, mode, screens, screenshot, pixel

        /// The fields it takes with their types: positional ones first, in the command line's order, then
        /// the options.
        var fields: (positional: [(String, FieldType)], options: [(String, FieldType)]) {
            switch self {
            case .hello, .release, .screens: ([], [])
            case .lease: ([], [("monitors", .strings)])
            case .plug: ([("name", .string), ("geometry", .string)],
                         [("primary", .flag), ("rate", .number), ("manufacturer", .string), ("model", .string),
                          ("serialNumber", .string), ("physicalSize", .string), ("edid", .string)])
            case .unplug: ([("name", .string)], [("keepPrimary", .flag)])
            case .mode: ([("name", .string), ("size", .string)], [("rate", .number)])
            case .screenshot: ([], [("output", .string), ("screen", .string)])
            case .pixel: ([("x", .wholeNumber), ("y", .wholeNumber)], [("screen", .string)])
            }
        }

        /// The fields every request of this name may carry besides its own: a command's `arguments` and
        /// `directory`, and the `lease` a request acts under (all but `hello` and `lease`).
        var commonFields: [(String, FieldType)] {
            (isCommand ? [("arguments", .strings), ("directory", .string)] : []) + (isLeased ? [("lease", .string)] : [])
        }

        /// Whether it stands for a command, which may also be given as that command's own arguments
        /// (`"arguments"`), and whose relative paths are the client's (`"directory"`).
        var isCommand: Bool { [.plug, .unplug, .mode, .screenshot].contains(self) }

        /// Whether it acts on the lease held, and so may name the lease it means (`"lease"`).
        var isLeased: Bool { self != .hello && self != .lease }
    }

    var name: Name
    var fields: [String: JSONValue]
    /// The request's `id`, echoed in its answer (absent: none).
    var id: JSONValue?
    /// When it arrived (`ControlClock`): its answer is due within the X server's timeout of it, however
    /// long the requests before it took.
    var received: Double = 0

    /// The lease it names, if any.
    var lease: String? { fields["lease"]?.string }

    /// Reads one line: a JSON object (no key twice) with a known `"request"` and only that request's
    /// fields, each of its type; else the refusal to answer with (`malformedRequest`, `unknownRequest`,
    /// `unknownField`, `invalidField`), the `id` when one could be read.
    static func parse(_ line: [UInt8]) -> Result<ControlRequest, ControlRefusal> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return .failure(ControlRefusal(code: .malformedRequest,
                                           message: "the line is not one JSON text (\(error.reason), at byte \(error.offset)): one JSON object a line, such as {\"request\":\"screens\"}"))
        }
        guard case .object(var members) = value else {
            return .failure(ControlRefusal(code: .malformedRequest, message: "a request is a JSON object, such as {\"request\":\"screens\"}"))
        }
        let id = members.removeValue(forKey: "id")
        guard case .string(let text)? = members.removeValue(forKey: "request") else {
            return .failure(ControlRefusal(code: .malformedRequest, message: "the object has no \"request\" string", id: id))
        }
        guard let name = Name(rawValue: text) else {
            let known = Name.allCases.map(\.rawValue).joined(separator: ", ")
            return .failure(ControlRefusal(code: .unknownRequest, message: "no request \"\(text.terminalEscaped)\"; the requests are \(known)", id: id))
        }
        let declared = name.fields.positional + name.fields.options + name.commonFields
        let types = Dictionary(declared, uniquingKeysWith: { first, _ in first })
        if let stray = members.keys.sorted().first(where: { types[$0] == nil }) {
            let list = types.isEmpty ? "none" : types.keys.sorted().joined(separator: ", ")
            return .failure(ControlRefusal(code: .unknownField, message: "\(name.rawValue) has no field \"\(stray.terminalEscaped)\"; its fields: \(list)", id: id))
        }
        // A value of another type is refused, never converted: "name": 5 is a mistake, not the name "5".
        // null stands for an option left out.
        let positional = Set(name.fields.positional.map(\.0))
        for key in members.keys.sorted() {
            guard let type = types[key], let v = members[key] else { continue }
            if v == .null, !positional.contains(key) { continue }
            guard type.admits(v) else {
                return .failure(ControlRefusal(code: .invalidField, message: "\(name.rawValue): \"\(key)\" must be \(type.rawValue)", id: id))
            }
        }
        return .success(ControlRequest(name: name, fields: members, id: id))
    }

    /// The command line that says the same (positional fields in order, `serialNumber` as
    /// `--serial-number`, `true` as a flag, `false` as nothing): the command's own parser then checks
    /// it, so a request is refused exactly where the command would be. A missing positional field is
    /// `invalidField` (types were checked by `parse`).
    ///
    /// `"arguments"` gives the command line itself (what follows the command's name, as a shell passes
    /// it: what the CLI sends when `MULTIHEAD_CONTROL` is set), instead of the fields.
    func arguments() throws(ControlRefusal) -> [String] {
        if case .array(let items)? = fields["arguments"] {
            let others = Set(fields.keys).subtracting(["arguments", "directory", "lease"])
            guard others.isEmpty else {
                throw ControlRefusal(code: .invalidField, message: "\(name.rawValue): \"arguments\" stands for every other field; drop \(others.sorted().joined(separator: ", "))", id: id)
            }
            return items.compactMap(\.string)
        }
        var argv: [String] = []
        for (key, _) in name.fields.positional {
            guard let v = fields[key], let text = Self.argument(v) else {
                throw ControlRefusal(code: .invalidField, message: "\(name.rawValue) needs \"\(key)\"", id: id)
            }
            argv.append(text)
        }
        // Positional values that begin with "-" are refused by the parser as they are on the command line
        // (a negative geometry), so the order is the command line's.
        for (key, _) in name.fields.options.sorted(by: { $0.0 < $1.0 }) {
            guard let v = fields[key] else { continue }
            let flag = "--" + Self.kebab(key)
            switch v {
            case .bool(true): argv.append(flag)
            case .bool(false), .null: continue
            default: if let text = Self.argument(v) { argv += [flag, text] }
            }
        }
        return argv
    }

    /// A string or a number as the command line writes it.
    private static func argument(_ v: JSONValue) -> String? {
        switch v {
        case .string(let s): s
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        default: nil
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
    var code: ControlErrorCode
    var message: String
    var id: JSONValue? = nil
}
