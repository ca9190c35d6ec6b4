import ArgumentParser
import Multihead

/// A request's one declaration: its fields, each a property's key path with its name and help
/// (`RequestField`). From it alone come the command line's parse of the words after the command (`parse`),
/// the socket's decoding of a line's members (`decode`) and the client's encoding (`encode`), the fields
/// the socket checks a line against (`fields`), and the command's help (`usage`, `help`). Without
/// reflection or the argument parser: a forwarded `multihead plug` runs this and nothing heavier.
package struct RequestDeclaration<Request>: Sendable {
    /// An entry of a declaration: a field, or a group's fields.
    package struct Entry: Sendable {
        let fields: [RequestField<Request>]

        /// A positional argument, `<key>` in the command line's order.
        package static func positional<V: RequestFieldValue>(_ path: WritableKeyPath<Request, V> & Sendable, _ key: String, help: String) -> Entry {
            field(key, .positional, required: true, help: help, set: { $0[keyPath: path] = $1 }, get: { $0[keyPath: path] })
        }

        /// An option that may be left out (nil).
        package static func option<V: RequestFieldValue>(_ path: WritableKeyPath<Request, V?> & Sendable, _ key: String, help: String) -> Entry {
            field(key, .option, required: false, help: help, set: { $0[keyPath: path] = $1 }, get: { $0[keyPath: path] })
        }

        /// An option every request must give, with a one-letter name besides its long one (`-o`).
        package static func required<V: RequestFieldValue>(_ path: WritableKeyPath<Request, V> & Sendable, _ key: String, short: Character,
                                                           help: String) -> Entry {
            field(key, .option, required: true, short: "-\(short)", help: help, set: { $0[keyPath: path] = $1 }, get: { $0[keyPath: path] })
        }

        /// A flag: true when given; sent only when true.
        package static func flag(_ path: WritableKeyPath<Request, Bool> & Sendable, _ key: String, help: String) -> Entry {
            field(key, .flag, required: false, help: help, set: { $0[keyPath: path] = $1 }, get: { $0[keyPath: path] ? true : nil })
        }

        /// A list of strings, the option once for each item; nil when not given (and then not sent), so that
        /// an empty list given is told from none (`lease`'s `"monitors": []` is refused, not the default).
        package static func list(_ path: WritableKeyPath<Request, [String]?> & Sendable, _ key: String, help: String) -> Entry {
            Entry(fields: [RequestField(key: key, kind: .list, type: .strings, isRequired: false, short: nil, help: help, section: nil,
                                        setWord: { r, word in r[keyPath: path] = (r[keyPath: path] ?? []) + [word] },
                                        setJSON: { r, json in if case .array(let items) = json { r[keyPath: path] = items.compactMap(\.string) } },
                                        value: { $0[keyPath: path].map { .array($0.map(JSONText.string)) } })])
        }

        /// A group's fields, as the request's own (its `validate()` is the request's to call).
        package static func group<G: DeclaredFields>(_ path: WritableKeyPath<Request, G> & Sendable, title: String? = nil) -> Entry {
            Entry(fields: G.declaration.all.map { $0.lifted(into: path, section: title) })
        }

        /// A field of type `V`, set and read through `set` and `get` (nil: not sent); messages name it by its
        /// label (`<geometry>`, `--rate`).
        private static func field<V: RequestFieldValue>(_ key: String, _ kind: RequestFieldKind, required: Bool, short: String? = nil, help: String,
                                                        set: @escaping @Sendable (inout Request, V) -> Void,
                                                        get: @escaping @Sendable (Request) -> V?) -> Entry {
            let label = kind == .positional ? "<\(key)>" : ControlField.option(for: key)
            return Entry(fields: [RequestField(key: key, kind: kind, type: V.fieldType, isRequired: required, short: short, help: help, section: nil,
                                               setWord: { r, word throws(UsageError) in set(&r, try V(word: word, for: label)) },
                                               setJSON: { r, json throws(UsageError) in set(&r, try V(json: json, for: label)) },
                                               value: { get($0)?.json })])
        }
    }

    /// Every field, in the declaration's order.
    package let all: [RequestField<Request>]

    /// The declaration of these fields, in this order (a positional field's place is its order).
    package init(_ entries: [Entry]) {
        all = entries.flatMap(\.fields)
    }

    /// The fields as the socket checks them: positional ones first, in order, then the options.
    package var fields: [ControlField] {
        all.filter { $0.kind == .positional }.map(\.control) + all.filter { $0.kind != .positional }.map(\.control)
    }

    /// Whether a field is a path, which a client's `directory` makes whole.
    package var hasPath: Bool {
        for i in 0..<all.count where all[i].type == .path { return true }
        return false
    }

}

// What needs the value's `init()` and `validate()`. The type itself asks nothing of `Request`: a generic
// type's requirement is checked when its metadata is made from its mangled name, a search of every
// conformance in the binary that cost a forwarded `plug` a tenth of its instructions.
extension RequestDeclaration where Request: DeclaredFields {
    // MARK: The command line

    /// The value the words after `command` say, checked by its `validate()`: positional words in order,
    /// `--option VALUE` or `--option=VALUE` (the next word is the value, whatever it begins with), flags,
    /// a list's option once per item; `--` ends the options; a word such as `-5` or `-1x1` is a value. A
    /// mistake is a usage error (64) saying what was meant.
    package func parse(_ words: [String], command: String) throws(UsageError) -> Request {
        var request = Request()
        // Loops over indices, not `filter` or `first(where:)`: in this unspecialized generic code those
        // find their associated types by mangled name and check their requirements, a search of every
        // conformance in the binary (a third of what this parse cost).
        var positional: [RequestField<Request>] = []
        for i in 0..<all.count where all[i].kind == .positional { positional.append(all[i]) }
        // The options given, by key: an array, not a Set, whose metadata (made from its mangled name,
        // Hashable checked) costs a run more than the search of a dozen names.
        var given = 0, seen: [String] = [], onlyValues = false
        var rest = words[...]
        while let word = rest.popFirst() {
            if !onlyValues, word == "--" { onlyValues = true; continue }
            guard onlyValues || !Self.isOption(word) else {
                let (name, attached) = Self.split(word)
                guard let field = option(named: name) else {
                    throw UsageError(message: "\(command) has no option \(name.terminalEscaped); its options: \(optionList)")
                }
                if field.kind == .flag {
                    if attached != nil { throw UsageError(message: "\(command): \(field.option) is a flag: it takes no value") }
                    try field.setJSON(&request, .bool(true))
                    continue
                }
                guard let value = attached ?? rest.popFirst() else { throw UsageError(message: "\(command): \(field.option) needs a value") }
                if field.kind != .list, seen.contains(field.key) {
                    throw UsageError(message: "\(command): \(field.option) is given twice")
                }
                seen.append(field.key)
                try field.setWord(&request, value)
                continue
            }
            guard given < positional.count else {
                throw UsageError(message: "\(command) takes \(positional.map(\.label).joined(separator: " ")); \"\(word.terminalEscaped)\" is one word too many")
            }
            try positional[given].setWord(&request, word)
            given += 1
        }
        if given < positional.count { throw UsageError(message: "\(command) needs \(positional[given].label)") }
        for i in 0..<all.count where all[i].kind != .positional && all[i].isRequired && !seen.contains(all[i].key) {
            throw UsageError(message: "\(command) needs \(all[i].short.map { "\($0)/" } ?? "")\(all[i].option)")
        }
        return try Self.checked(request)
    }

    /// The option (or flag, or list) a word names, by its long or its one-letter name.
    private func option(named name: String) -> RequestField<Request>? {
        for i in 0..<all.count where all[i].kind != .positional && (all[i].option == name || all[i].short == name) { return all[i] }
        return nil
    }

    /// Whether a word names an option: it begins with "-" and is not a number or a geometry such as
    /// `-5` or `-100x100+0+0` (a value, which its field's check refuses with a reason).
    private static func isOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), let next = word.dropFirst().first else { return false }
        return !next.isNumber && next != "."
    }

    /// `--name=value` as its name and the value attached.
    private static func split(_ word: String) -> (String, String?) {
        guard let eq = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<eq]), String(word[word.index(after: eq)...]))
    }

    /// The options, as a mistake's message lists them.
    private var optionList: String {
        all.filter { $0.kind != .positional }.map { ($0.short.map { "\($0)/" } ?? "") + $0.option }.joined(separator: ", ")
    }

    // MARK: The socket

    /// The value a request's members say (their names and JSON types checked already by
    /// `ControlRequest.parse` against `fields`), checked by its `validate()`. `null` leaves an option out;
    /// a relative path is made whole with `directory` (the client's folder), or refused without one.
    package func decode(_ members: [String: JSONValue], directory: String?, request name: String,
                        id: JSONValue? = nil) throws -> Request {
        var request = Request()
        for field in all {
            guard var json = members[field.key], json != .null else {
                if field.isRequired { throw UsageError(message: "\(name) needs \"\(field.key)\"") }
                continue
            }
            if field.type == .path, case .string(let given) = json, !given.hasPrefix("/") {
                guard let directory, directory.hasPrefix("/") else {
                    throw ControlRefusal(code: .invalidField,
                                         message: "\(name): \"\(field.key)\" must be an absolute path, or come with \"directory\", the client's absolute working folder",
                                         id: id)
                }
                json = .string(directory + "/" + given)
            }
            try field.setJSON(&request, json)
        }
        return try Self.checked(request)
    }

    /// The members a client sends for the value: every field it gives (an option left out, a flag not
    /// set and an empty list are not sent), in the declaration's order.
    package func encode(_ request: Request) -> [(String, JSONText)] {
        var members: [(String, JSONText)] = []
        // A loop over indices, as in `parse`: no generic algorithm that looks its types up by name.
        for i in 0..<all.count {
            if let value = all[i].value(request) { members.append((all[i].key, value)) }
        }
        return members
    }

    /// The value once its `validate()` took it; its refusal a usage error (64) in its own words.
    private static func checked(_ request: Request) throws(UsageError) -> Request {
        do {
            try request.validate()
        } catch let e as UsageError {
            throw e
        } catch let e as ValidationError {
            throw UsageError(message: e.message)
        } catch {
            throw UsageError(message: "\(error)")
        }
        return request
    }

    // MARK: Help

    /// The command's usage line: `multihead plug <name> <geometry> [--primary] [--rate <rate>] …`, then
    /// what the command adds of its own (`--display`, `--force`).
    package func usage(_ command: String, adding own: String = "") -> String {
        let words = all.map { field -> String in
            switch field.kind {
            case .positional: field.label
            case .flag: "[\(field.option)]"
            case .option where field.isRequired: "\(field.short ?? field.option) <\(field.option.dropFirst(2))>"
            case .option: "[\(field.option) <\(field.option.dropFirst(2))>]"
            case .list: "[\(field.option) <\(field.option.dropFirst(2))> ...]"
            }
        }
        return ([command] + words + (own.isEmpty ? [] : [own])).joined(separator: " ")
    }

    /// Each field with its help, as the command's help shows them: the arguments, then the options, a
    /// group's under its title; wrapped to 78 columns with the help in a column of its own, as the
    /// argument parser lays out its own options.
    package var help: String {
        var lines = ["ARGUMENTS AND OPTIONS OF THE REQUEST:"]
        var section: String?
        for field in all {
            if field.section != section, let title = field.section { lines += [""] + Self.wrap(title + ":", width: 78) }
            section = field.section
            let value = "<\(field.option.dropFirst(2))>"
            let name = switch field.kind {
            case .positional: field.label
            case .flag: field.option
            case .option, .list: (field.short.map { "\($0), " } ?? "") + "\(field.option) \(value)"
            }
            let column = 28
            var text = Self.wrap(field.help, width: 78 - column)
            if name.count + 4 > column { lines.append("  " + name) } else {
                lines.append("  " + name.padding(toLength: column - 2, withPad: " ", startingAt: 0) + text.removeFirst())
            }
            lines += text.map { String(repeating: " ", count: column) + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// A text's words in lines of at most `width` characters.
    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + (line.isEmpty ? [] : [line])
    }
}
