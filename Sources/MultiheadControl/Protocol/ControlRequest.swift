/// One request on the control socket, as its line of JSON gave it: which request, its fields, and the
/// `id` to echo. The fields' names and types are the request's declaration's (`RequestDeclaration`), and
/// `decode` makes its value by the same declaration and `validate()` as the command line's parse, so both
/// front ends refuse a request alike.
package struct ControlRequest: Sendable, Equatable {
    /// The requests, by the name a line gives in `"request"`.
    package enum Name: String, Sendable, CaseIterable {
        case hello, lease, release, plug, unplug, mode, screens, screenshot, pixel, windows, move_window, fullscreen_window

        /// Its own fields, as its request's declaration gives them: positional ones first, in the command
        /// line's order, then the options. (A switch, not a dictionary keyed by the name: such a dictionary
        /// costs a command line run a protocol-conformance lookup over the whole binary.)
        package var fields: [ControlField] {
            switch self {
            case .hello, .release, .screens, .windows: []
            case .lease: LeaseRequest.declaration.fields
            case .plug: PlugRequest.declaration.fields
            case .unplug: UnplugRequest.declaration.fields
            case .mode: ModeRequest.declaration.fields
            case .screenshot: ScreenshotRequest.declaration.fields
            case .pixel: PixelRequest.declaration.fields
            case .move_window: MoveWindowRequest.declaration.fields
            case .fullscreen_window: FullscreenWindowRequest.declaration.fields
            }
        }

        /// The fields every request of this name may carry besides its own: the client's `directory`
        /// where a field is a path, and the `lease` it acts under (all but `hello` and `lease`).
        package var commonFields: [ControlField] {
            (fields.contains { $0.type == .path } ? [ControlField(key: "directory", type: .path, isPositional: false)] : [])
                + (isLeased ? [ControlField(key: "lease", type: .string, isPositional: false)] : [])
        }

        /// Whether it acts on the lease held, and so may name the lease it means (`"lease"`).
        package var isLeased: Bool { self != .hello && self != .lease }
    }

    package var name: Name
    package var fields: [String: JSONValue]
    /// The request's `id`, echoed in its answer (absent: none).
    package var id: JSONValue?
    /// When it arrived (`MonotonicClock`): its answer is due within the X server's timeout of it, however
    /// long the requests before it took.
    package var received: Double = 0

    package init(name: Name, fields: [String: JSONValue], id: JSONValue? = nil) {
        self.name = name
        self.fields = fields
        self.id = id
    }

    /// The lease it names, if any.
    package var lease: String? { fields["lease"]?.string }

    /// Reads one line: a JSON object (no key twice) with a known `"request"` and only that request's
    /// fields, each of its type; else the refusal to answer with (`malformedRequest`, `unknownRequest`,
    /// `unknownField`, `invalidField`), the `id` when one could be read.
    package static func parse(_ line: [UInt8]) -> Result<ControlRequest, ControlRefusal> {
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
        let declared = name.fields + name.commonFields
        if let stray = members.keys.sorted().first(where: { key in !declared.contains { $0.key == key } }) {
            let list = declared.isEmpty ? "none" : declared.map(\.key).sorted().joined(separator: ", ")
            return .failure(ControlRefusal(code: .unknownField, message: "\(name.rawValue) has no field \"\(stray.terminalEscaped)\"; its fields: \(list)", id: id))
        }
        // A value of another type is refused, never converted: "name": 5 is a mistake, not the name "5".
        // null stands for an option left out.
        for field in declared {
            guard let v = members[field.key] else {
                if field.isPositional {
                    return .failure(ControlRefusal(code: .invalidField, message: "\(name.rawValue) needs \"\(field.key)\"", id: id))
                }
                continue
            }
            if v == .null, !field.isPositional { continue }
            guard field.type.admits(v) else {
                return .failure(ControlRefusal(code: .invalidField, message: "\(name.rawValue): \"\(field.key)\" must be \(field.type.rawValue)", id: id))
            }
        }
        return .success(ControlRequest(name: name, fields: members, id: id))
    }

    /// The request's value, decoded from its fields by its declaration and checked by its `validate()`
    /// (a value a field's type refuses, or the check, is `usage` with the reason); a relative path is made
    /// whole with `directory`, or refused without one (the server's folder is not the client's).
    package func decode<R: ControlRequestValue>(_ type: R.Type) throws -> R {
        try R.declaration.decode(fields, directory: fields["directory"]?.string, request: name.rawValue, id: id)
    }
}

/// A request refused before it ran: an answer with status 64, a stable code and the reason.
package struct ControlRefusal: Error, Sendable, Equatable {
    package var code: ControlErrorCode
    package var message: String
    package var id: JSONValue? = nil

    package init(code: ControlErrorCode, message: String, id: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.id = id
    }
}
