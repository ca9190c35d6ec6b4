import ArgumentParser

/// A request's arguments: the one declaration of what a request takes. The command line's options and
/// arguments (names, help, defaults, checks in `validate()`) are its `@Argument`, `@Option`, `@Flag` and
/// `@OptionGroup` properties, and the control socket's fields are the same properties: a field is the
/// property's name (`serialNumber`), its JSON type follows from the property's type. `fields` lists them
/// beside the properties, read without reflection (reading them off the properties costs a command line
/// run seven times its own work); the requests' tests hold it to what `ControlFields.of` reads off them.
package protocol ControlArguments: ParsableArguments {
    /// The fields, in the properties' order.
    static var fields: [ControlField] { get }
}

/// One field of a request on the control socket, as its declaration gives it.
package struct ControlField: Equatable, Sendable {
    /// The JSON key: the property's name.
    package var key: String
    /// What its value must be.
    package var type: ControlFieldType
    /// Whether it is a positional argument on the command line (always needed), not an option.
    package var isPositional: Bool

    /// A positional field.
    package static func positional(_ key: String, _ type: ControlFieldType) -> ControlField {
        ControlField(key: key, type: type, isPositional: true)
    }

    /// An option's field.
    package static func option(_ key: String, _ type: ControlFieldType) -> ControlField {
        ControlField(key: key, type: type, isPositional: false)
    }

    /// The command line's name of an option, as the argument parser makes it from the property's name
    /// (`serialNumber` → `--serial-number`).
    package var option: String {
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

/// A type a declared property may hold: its field type, and its value as a field.
package protocol ControlFieldValue {
    static var fieldType: ControlFieldType { get }
    /// The value as the socket carries it; nil for an option left out (nil, or a flag not set).
    var fieldValue: JSONText? { get }
}

extension String: ControlFieldValue {
    package static var fieldType: ControlFieldType { .string }
    package var fieldValue: JSONText? { .string(self) }
}

extension Int: ControlFieldValue {
    package static var fieldType: ControlFieldType { .wholeNumber }
    package var fieldValue: JSONText? { .int(self) }
}

extension Bool: ControlFieldValue {
    package static var fieldType: ControlFieldType { .flag }
    package var fieldValue: JSONText? { self ? .bool(true) : nil }
}

extension Array: ControlFieldValue where Element == String {
    package static var fieldType: ControlFieldType { .strings }
    package var fieldValue: JSONText? { isEmpty ? nil : .array(map(JSONText.string)) }
}

extension Optional: ControlFieldValue where Wrapped: ControlFieldValue {
    package static var fieldType: ControlFieldType { Wrapped.fieldType }
    package var fieldValue: JSONText? { flatMap(\.fieldValue) }
}

/// An argument parser property that declares a field: `@Argument`, `@Option` or `@Flag` of a field type.
private protocol FieldDeclaration {
    static var fieldType: ControlFieldType { get }
    static var isPositional: Bool { get }
    var fieldValue: JSONText? { get }
}

extension Argument: FieldDeclaration where Value: ControlFieldValue {
    static var fieldType: ControlFieldType { Value.fieldType }
    static var isPositional: Bool { true }
    var fieldValue: JSONText? { wrappedValue.fieldValue }
}

extension Option: FieldDeclaration where Value: ControlFieldValue {
    static var fieldType: ControlFieldType { Value.fieldType }
    static var isPositional: Bool { false }
    var fieldValue: JSONText? { wrappedValue.fieldValue }
}

extension Flag: FieldDeclaration where Value: ControlFieldValue {
    static var fieldType: ControlFieldType { Value.fieldType }
    static var isPositional: Bool { false }
    var fieldValue: JSONText? { wrappedValue.fieldValue }
}

/// `@OptionGroup`: its group's fields are the request's own.
private protocol GroupDeclaration {
    static var group: any ParsableArguments.Type { get }
    var members: [(key: String, value: JSONText)] { get }
}

extension OptionGroup: GroupDeclaration {
    static var group: any ParsableArguments.Type { Value.self }
    var members: [(key: String, value: JSONText)] { ControlFields.members(of: wrappedValue) }
}

/// Reads a declaration's fields off its properties (their stored wrappers, in declaration order: the
/// positional arguments' order is the command line's).
package enum ControlFields {
    /// The fields `type` declares.
    package static func of(_ type: any ParsableArguments.Type) -> [ControlField] {
        // A new instance holds each property's definition, never read here: only its wrapper's type is.
        Mirror(reflecting: type.init()).children.flatMap { child -> [ControlField] in
            let wrapper = Swift.type(of: child.value)
            if let group = wrapper as? any GroupDeclaration.Type { return of(group.group) }
            guard let label = child.label, label.hasPrefix("_") else { return [] }
            guard let d = wrapper as? any FieldDeclaration.Type else {
                // A property the socket cannot carry would vanish from it without a word: a mistake in the
                // declaration, which the requests' tests (they read every declaration) stop at.
                let name = String(describing: wrapper)
                if ["Argument<", "Option<", "Flag<"].contains(where: name.hasPrefix) {
                    preconditionFailure("\(type).\(label.dropFirst()) is \(name), whose value has no control field type")
                }
                return []
            }
            return [ControlField(key: String(label.dropFirst()), type: d.fieldType, isPositional: d.isPositional)]
        }
    }

    /// A parsed value's fields as a request sends them (options left out are not sent).
    package static func members(of value: any ParsableArguments) -> [(key: String, value: JSONText)] {
        Mirror(reflecting: value).children.flatMap { child -> [(key: String, value: JSONText)] in
            if let group = child.value as? any GroupDeclaration { return group.members }
            guard let label = child.label, label.hasPrefix("_"), let d = child.value as? any FieldDeclaration,
                  let v = d.fieldValue else { return [] }
            return [(key: String(label.dropFirst()), value: v)]
        }
    }
}
