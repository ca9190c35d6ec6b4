import Multihead

/// A type a request's field may hold: its JSON type, how a command line's word and a socket's JSON value
/// become one (the one place such a value is read and checked), and how it is written. A field's type
/// follows from its property's: `RequestDeclaration` needs nothing else to parse, decode and encode it.
package protocol RequestFieldValue: Sendable, Equatable {
    /// What it is in JSON.
    static var fieldType: ControlFieldType { get }
    /// The value a word says, or a usage error quoting the word for `option` (`--rate`, `<geometry>`).
    init(word: String, for option: String) throws(UsageError)
    /// The value of a JSON member already of `fieldType` (a string one is read as its word).
    init(json: JSONValue, for option: String) throws(UsageError)
    /// The value as the socket carries it.
    var json: JSONText { get }
}

extension RequestFieldValue {
    package init(json: JSONValue, for option: String) throws(UsageError) {
        try self.init(word: json.string ?? "", for: option)
    }
}

extension String: RequestFieldValue {
    package static var fieldType: ControlFieldType { .string }
    package init(word: String, for option: String) { self = word }
    package var json: JSONText { .string(self) }
}

extension Int: RequestFieldValue {
    package static var fieldType: ControlFieldType { .wholeNumber }

    package init(word: String, for option: String) throws(UsageError) {
        // Negative numbers parse, so that `validate()` says what range is meant.
        guard let v = Int(word) else { throw UsageError(message: "\(option) takes a whole number, not \"\(word.terminalEscaped)\"") }
        self = v
    }

    package init(json: JSONValue, for option: String) throws(UsageError) {
        // `ControlFieldType.admits` let only whole numbers from 0 below 1e15 through.
        guard let v = json.int else { throw UsageError(message: "\(option) takes a whole number") }
        self = v
    }

    package var json: JSONText { .int(self) }
}

extension Double: RequestFieldValue {
    package static var fieldType: ControlFieldType { .number }

    package init(word: String, for option: String) throws(UsageError) {
        // Decimal only: no "0x1A", no "1e3", no "inf". Negative values parse, so that `validate()` can say
        // "must be ≥ 0".
        guard let v = Double(decimal: word) else { throw UsageError(message: "\(option) takes a number such as 59.94, not \"\(word.terminalEscaped)\"") }
        self = v
    }

    package init(json: JSONValue, for option: String) throws(UsageError) {
        guard case .number(let v) = json else { throw UsageError(message: "\(option) takes a number") }
        self = v
    }

    package var json: JSONText { .number(self) }
}

extension Bool: RequestFieldValue {
    package static var fieldType: ControlFieldType { .flag }

    /// An option that is true or false when given (`lease`'s `wm`, whose absence is the server's default);
    /// a flag is set without a word.
    package init(word: String, for option: String) throws(UsageError) {
        switch word {
        case "true": self = true
        case "false": self = false
        default: throw UsageError(message: "\(option) is true or false, not \"\(word.terminalEscaped)\"")
        }
    }

    package init(json: JSONValue, for option: String) throws(UsageError) {
        guard case .bool(let v) = json else { throw UsageError(message: "\(option) is true or false") }
        self = v
    }

    package var json: JSONText { .bool(self) }
}

extension MonitorRotation: RequestFieldValue {
    package static var fieldType: ControlFieldType { .string }

    /// `--rotation normal|left|right|inverted` on the command line, `"rotation": "left"` on the socket.
    package init(word: String, for option: String) throws(UsageError) {
        guard let v = MonitorRotation(rawValue: word) else {
            let all = MonitorRotation.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(message: "\(option) is one of \(all), not \"\(word.terminalEscaped)\"")
        }
        self = v
    }

    package var json: JSONText { .string(rawValue) }
}
