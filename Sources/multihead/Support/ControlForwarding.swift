import Foundation
import Multihead
import MultiheadControl

/// `plug`, `unplug` and `mode` with `MULTIHEAD_CONTROL` set (inside `multihead run`, or beside
/// `multihead server`): the arguments become the request's fields by the request's declaration
/// (`ControlFields`: its options' names and types), without starting the argument parser (its
/// reflection over a command was seven times the rest of such a run), and the server, which parses the
/// same declaration, checks and performs them. What the parser answers itself (help, `--display` naming
/// another server, a word the declaration does not have, a number that is not one) stays with it (nil).
enum ControlForwarding {
    /// The exit status, having printed what the command prints; nil when the parser should answer.
    static func forward(_ args: [String]) -> Int32? {
        guard let path = ControlClient.socket(nil), let first = args.first,
              let name = ControlRequest.Name(rawValue: first), [.plug, .unplug, .mode].contains(name),
              var fields = fields(of: name, Array(args.dropFirst())) else { return nil }
        if name.commonFields.contains(where: { $0.key == "directory" }) {
            fields.append(("directory", .string(FileManager.default.currentDirectoryPath)))
        }
        do {
            let answer = try ControlClient.send(name, fields, to: path)
            if name == .mode, let set = ModeAnswer(answer: answer) {
                let m = set.mode
                let mode = ScreenMode(width: m.width, height: m.height, refreshRate: m.refreshRate, isInterlaced: m.interlaced)
                try StandardOutput.line("\(set.name.terminalEscaped): \(mode)")
            }
            return 0
        } catch let failure as CommandFailure {
            printError(failure.message)
            return failure.status
        } catch {
            return exitCode(for: error).rawValue
        }
    }

    /// The fields a command line gives, by the request's declaration: its positional values in order
    /// (everything after `--` is one), `--option value` or `--option=value`, a flag as `true`; `--force`,
    /// the command line's own, is dropped. Nil for anything the parser should judge.
    static func fields(of name: ControlRequest.Name, _ args: [String]) -> [(String, JSONText)]? {
        let declared = name.fields
        let positional = declared.filter(\.isPositional)
        var fields: [(String, JSONText)] = [], values: [String] = [], lists: [String: [String]] = [:]
        var i = 0, onlyValues = false
        while i < args.count {
            let word = args[i]
            i += 1
            if onlyValues || !word.hasPrefix("-") || word == "-" {
                values.append(word)
                continue
            }
            if word == "--" { onlyValues = true; continue }
            if word == "--force" { continue }
            let (flag, attached) = word.split(separator: "=", maxSplits: 1).map(String.init).splitPair
            guard let field = declared.first(where: { !$0.isPositional && $0.option == flag }) else { return nil }
            if field.type == .flag {
                guard attached == nil else { return nil }
                fields.append((field.key, .bool(true)))
                continue
            }
            guard let text = attached ?? (i < args.count ? args[i] : nil) else { return nil }
            if attached == nil { i += 1 }
            if field.type == .strings {
                lists[field.key, default: []].append(text)
            } else {
                guard let value = value(text, as: field.type) else { return nil }
                fields.append((field.key, value))
            }
        }
        guard values.count == positional.count else { return nil }
        for (field, text) in zip(positional, values) {
            guard let value = value(text, as: field.type) else { return nil }
            fields.append((field.key, value))
        }
        for (key, items) in lists { fields.append((key, .array(items.map(JSONText.string)))) }
        // One field once: a repeated option is the parser's to judge.
        guard Set(fields.map(\.0)).count == fields.count else { return nil }
        return fields
    }

    /// A word as a field of this type; nil when it is not one (the parser says why).
    private static func value(_ text: String, as type: ControlFieldType) -> JSONText? {
        switch type {
        case .string, .path: .string(text)
        case .number: Double(decimal: text).map(JSONText.number)
        case .wholeNumber: Int(text).flatMap { $0 >= 0 ? .int($0) : nil }
        case .flag, .strings: nil
        }
    }
}

private extension Array where Element == String {
    /// The first element and the second, if any.
    var splitPair: (String, String?) { (first ?? "", count > 1 ? self[1] : nil) }
}
