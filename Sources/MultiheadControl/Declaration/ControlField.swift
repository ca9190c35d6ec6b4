/// One field of a request on the control socket, as its declaration gives it (`RequestDeclaration.fields`):
/// what `ControlRequest.parse` checks a line's members against before the value is decoded.
package struct ControlField: Equatable, Sendable {
    /// The JSON key: the property's name.
    package var key: String
    /// What its value must be.
    package var type: ControlFieldType
    /// Whether it is a positional argument on the command line (always needed), not an option.
    package var isPositional: Bool

    /// A field as a declaration names it.
    package init(key: String, type: ControlFieldType, isPositional: Bool) {
        self.key = key
        self.type = type
        self.isPositional = isPositional
    }

    /// The command line's name of an option made from a field's key (`serialNumber` → `--serial-number`):
    /// one rule, so that a field and its option cannot be spelled apart.
    package static func option(for key: String) -> String {
        "--" + key.reduce(into: "") { out, c in
            if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) }
        }
    }
}

/// What a field's value must be in JSON.
package enum ControlFieldType: String, Sendable {
    case string = "a string"
    case path = "a path (a string)"
    case number = "a number"
    case wholeNumber = "a whole number from 0"
    case flag = "true or false"
    case strings = "a list of strings"

    /// Whether `value` is of this type.
    package func admits(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.path, .string), (.number, .number), (.flag, .bool): true
        case (.wholeNumber, .number(let n)): n >= 0 && n == n.rounded() && n < 1e15
        case (.strings, .array(let items)): items.allSatisfy { $0.string != nil }
        default: false
        }
    }
}
