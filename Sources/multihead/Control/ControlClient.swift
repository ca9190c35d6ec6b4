#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead

/// The command line's side of the control socket: `plug`, `unplug`, `mode`, `screens` and `screenshot`
/// send their request to `MULTIHEAD_CONTROL` when it is set (and no `--display` names another server),
/// and print what the answer says; no X connection of their own.
enum ControlClient {
    /// How long an answer may take: a lease that replaces an Xorg server takes seconds.
    static let answerTimeout = 60.0

    /// The socket to use: `MULTIHEAD_CONTROL` when set and not empty, unless `--display` was given.
    static func socket(_ display: String?) -> String? {
        guard display == nil, let p = getenv("MULTIHEAD_CONTROL") else { return nil }
        let path = String(cString: p)
        return path.isEmpty ? nil : path
    }

    /// `plug`, `unplug` and `mode` with `MULTIHEAD_CONTROL` set: their arguments go to the server as they
    /// are (`"arguments"`, with this folder for relative paths), where the command's own parser reads them,
    /// so this process starts no parser (most of a run's time); what the parser answers itself (help,
    /// `--display`) stays with it (nil). The exit status, having printed what the command prints.
    static func forward(_ args: [String]) -> Int32? {
        guard let path = socket(nil), let first = args.first, let name = ControlRequest.Name(rawValue: first),
              [.plug, .unplug, .mode].contains(name) else { return nil }
        let rest = Array(args.dropFirst())
        let parsersOwn = ["-h", "--help", "--version", "--display", "--experimental-dump-help"]
        guard !rest.contains(where: { parsersOwn.contains($0) || $0.hasPrefix("--display=") }) else { return nil }
        do {
            let answer = try send(name, [("arguments", .array(rest.map(JSONText.string))),
                                         ("directory", .string(FileManager.default.currentDirectoryPath))], to: path)
            if name == .mode, let monitor = answer["name"]?.string, let m = answer["mode"].flatMap(ScreenJSON.Mode.init(json:)) {
                let mode = ScreenMode(width: m.width, height: m.height, refreshRate: m.refreshRate, isInterlaced: m.interlaced)
                try StandardOutput.line("\(monitor.terminalEscaped): \(mode)")
            }
            return 0
        } catch let failure as CommandFailure {
            printError(failure.message)
            return failure.status
        } catch {
            return exitCode(for: error).rawValue
        }
    }

    /// Sends one request and returns its answer; an error answer is thrown as the `CommandFailure` it
    /// carries (the CLI exits with its status and prints its message), a socket that cannot be reached is
    /// 69 (`controlUnavailable`).
    static func send(_ name: ControlRequest.Name, _ fields: [(String, JSONText)], to path: String) throws(CommandFailure) -> JSONValue {
        let fd: Int32
        do {
            fd = try ControlSocket.connect(to: path, timeout: answerTimeout)
        } catch {
            throw CommandFailure(status: ExitStatus.unavailable, code: "controlUnavailable",
                                 message: "cannot reach the control socket \(path.terminalEscaped) (MULTIHEAD_CONTROL): \(error.reason)")
        }
        let lines = ControlLines(fd)
        defer { lines.close() }
        let request = JSONText.members([("request", .string(name.rawValue))] + fields.filter { field in if case .null = field.1 { false } else { true } }.map { (key: $0.0, value: $0.1) })
        guard lines.write(request.bytes), case .line(let line) = lines.next() else {
            throw CommandFailure(status: ExitStatus.unavailable, code: "controlUnavailable",
                                 message: "the control socket \(path.terminalEscaped) closed without answering")
        }
        return try answer(line)
    }

    /// The answer's members when it says `"ok": true`; else its error as a `CommandFailure`.
    static func answer(_ line: [UInt8]) throws(CommandFailure) -> JSONValue {
        guard let v = JSONValue.parse(line), case .bool(let ok)? = v["ok"] else {
            throw CommandFailure(status: ExitStatus.software, code: "malformedAnswer", message: "the control socket answered with something other than JSON")
        }
        if ok { return v }
        let e = v["error"]
        throw CommandFailure(status: e?["status"]?.int.flatMap { Int32(exactly: $0) } ?? ExitStatus.software, code: e?["code"]?.string ?? "unknown",
                             message: e?["message"]?.string ?? "the control socket refused the request")
    }
}
