/// One field of a request's declaration: its JSON key (the property's name, and so its option's name),
/// what kind of command line word it is, its help, and how it is read into and out of the request through
/// the property's key path. Made by `RequestDeclaration.Entry`'s functions, whose key path's value type
/// gives the field's JSON type and conversions (`RequestFieldValue`).
package struct RequestField<Request>: Sendable {
    /// The JSON key, the property's name (`serialNumber`).
    package let key: String
    /// How the command line gives it.
    package let kind: RequestFieldKind
    /// What its JSON value must be.
    package let type: ControlFieldType
    /// Whether a request without it is refused (positional fields, and options such as `screenshot`'s `-o`).
    package let isRequired: Bool
    /// A one-letter name besides the long one (`-o`), if any.
    package let short: String?
    /// Its line in the command's help.
    package let help: String
    /// The title of the group of options it came with (the help's heading for them), if any.
    package let section: String?
    /// Sets the property from a command line word (a flag is set without one).
    let setWord: @Sendable (inout Request, String) throws(UsageError) -> Void
    /// Sets the property from a JSON value of `type`.
    let setJSON: @Sendable (inout Request, JSONValue) throws(UsageError) -> Void
    /// The property as the socket carries it; nil when a request leaves it out (an option not given).
    let value: @Sendable (Request) -> JSONText?

    /// The command line's long name (`--serial-number`).
    package var option: String { ControlField.option(for: key) }

    /// How messages name it: `<geometry>` for a positional field, else its option.
    package var label: String { kind == .positional ? "<\(key)>" : option }

    /// The socket's view of it.
    package var control: ControlField { ControlField(key: key, type: type, isPositional: kind == .positional) }

    /// This field of a group, as a field of the request that holds the group at `path`.
    func lifted<Outer>(into path: WritableKeyPath<Outer, Request> & Sendable, section: String?) -> RequestField<Outer> {
        let (setWord, setJSON, value) = (setWord, setJSON, value)
        return RequestField<Outer>(key: key, kind: kind, type: type, isRequired: isRequired, short: short, help: help, section: section ?? self.section,
                                   setWord: { r, word throws(UsageError) in try setWord(&r[keyPath: path], word) },
                                   setJSON: { r, json throws(UsageError) in try setJSON(&r[keyPath: path], json) },
                                   value: { value($0[keyPath: path]) })
    }
}

/// How the command line gives a request's field.
package enum RequestFieldKind: Sendable, Equatable {
    /// A word in its place (needed).
    case positional
    /// `--name VALUE` or `--name=VALUE`.
    case option
    /// `--name`, true when given.
    case flag
    /// `--name VALUE`, once for each item of a list.
    case list
}
