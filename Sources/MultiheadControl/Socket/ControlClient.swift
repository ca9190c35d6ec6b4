#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead

/// The command line's side of the control socket: `plug`, `unplug`, `mode`, `screens` and `screenshot`
/// send their request to `MULTIHEAD_CONTROL` when it is set (and no `--display` names another server),
/// and print what the answer says; no X connection of their own.
package enum ControlClient {
    /// How long an answer may take: a lease that replaces an Xorg server takes seconds.
    package static let answerTimeout = 60.0

    /// The socket to use: `MULTIHEAD_CONTROL` when set and not empty, unless `--display` was given.
    package static func socket(_ display: String?) -> String? {
        guard display == nil, let p = getenv("MULTIHEAD_CONTROL") else { return nil }
        let path = String(cString: p)
        return path.isEmpty ? nil : path
    }

    /// Sends a request's value (its fields by its declaration, with this process's folder as `directory`
    /// when a field is a path) and returns its answer.
    package static func send<R: ControlRequestValue>(_ request: R, to path: String) throws(CommandFailure) -> JSONValue {
        var fields = R.declaration.encode(request)
        if R.declaration.hasPath {
            fields.append(("directory", .string(FileManager.default.currentDirectoryPath)))
        }
        return try send(R.name, fields, to: path)
    }

    /// Sends one request and returns its answer; an error answer is thrown as the `CommandFailure` it
    /// carries (the CLI exits with its status and prints its message), a socket that cannot be reached is
    /// 69 (`controlUnavailable`).
    package static func send(_ name: ControlRequest.Name, _ fields: [(String, JSONText)], to path: String) throws(CommandFailure) -> JSONValue {
        // One request on a connection of its own, closed when it is answered; the socket named as
        // MULTIHEAD_CONTROL's in a message when that is where the path came from.
        let connection = try ControlConnection(path: socket(nil) == path ? nil : path)
        defer { connection.close() }
        let given = fields.filter { field in if case .null = field.1 { false } else { true } }
        return try connection.send(name.rawValue, given.map { (key: $0.0, value: $0.1) })
    }

    /// The answer's members when it says `"ok": true`; else its error as a `CommandFailure`.
    package static func answer(_ line: [UInt8]) throws(CommandFailure) -> JSONValue {
        guard let v = JSONValue.parse(line), case .bool(let ok)? = v["ok"] else {
            throw CommandFailure(status: ExitStatus.software, code: "malformedAnswer", message: "the control socket answered with something other than JSON")
        }
        if ok { return v }
        let e = v["error"]
        throw CommandFailure(status: e?["status"]?.int.flatMap { Int32(exactly: $0) } ?? ExitStatus.software, code: e?["code"]?.string ?? "unknown",
                             message: e?["message"]?.string ?? "the control socket refused the request")
    }
}
