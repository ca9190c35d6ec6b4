#if canImport(Glibc)
import Glibc
#endif

/// A Swift client of a control socket (docs/control-socket.md): `multihead server`'s, or the one
/// `multihead run` gives its command in `MULTIHEAD_CONTROL`. One connection, kept open: its requests are
/// answered in order, one at a time. This module alone is what such a client needs.
///
/// ```swift
/// let control = try ControlConnection()
/// let plugged = try control.send("plug", ["name": .string("HDMI-1"), "geometry": .string("1920x1080+1920+0")])
/// let (_, screens) = try control.screens()
/// ```
public final class ControlConnection {
    /// The socket's path.
    public let path: String
    private let lines: ControlLines
    private var isOpen = true

    /// Connects to the socket at `path`, by default `MULTIHEAD_CONTROL`'s; a `CommandFailure` with status 69
    /// (`controlUnavailable`) when no path is given and none is set, or the socket cannot be reached.
    public init(path: String? = nil) throws(CommandFailure) {
        guard let socket = path ?? ControlClient.socket(nil) else {
            throw Self.unavailable("no control socket: MULTIHEAD_CONTROL is not set (run under `multihead run`, or give the path `multihead server` printed)")
        }
        self.path = socket
        do {
            lines = ControlLines(try ControlSocket.connect(to: socket, timeout: ControlClient.answerTimeout))
        } catch {
            // A path taken from the environment is named as such: the person did not type it.
            let from = path == nil ? " (MULTIHEAD_CONTROL)" : ""
            throw Self.unavailable("cannot reach the control socket \(socket.terminalEscaped)\(from): \(error.reason)")
        }
    }

    deinit { close() }

    /// Closes the connection (again: nothing). The server keeps what was done on it; the lease held stays.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        lines.close()
    }

    /// Sends one request (`request` its name, `fields` its fields as docs/control-socket.md's table lists
    /// them) and returns its answer, the whole object (`ok` and what the request answers). A refusal is
    /// thrown as the `CommandFailure` it carries (status, stable code, reason); a socket closed or
    /// silent past 60 s is 69 (`controlUnavailable`).
    public func send(_ request: String, _ fields: [String: JSONValue] = [:]) throws(CommandFailure) -> JSONValue {
        try send(request, fields.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value.text) })
    }

    /// `send`, with the fields as the protocol's own JSON (the command line's requests, `ControlClient`),
    /// in their order.
    package func send(_ request: String, _ fields: [(key: String, value: JSONText)]) throws(CommandFailure) -> JSONValue {
        guard isOpen else { throw Self.unavailable("the connection to \(path.terminalEscaped) is closed") }
        let members = [(key: "request", value: JSONText.string(request))] + fields
        guard lines.write(JSONText.members(members).bytes), case .line(let line) = lines.next() else {
            close()
            throw Self.unavailable("the control socket \(path.terminalEscaped) closed without answering")
        }
        return try ControlClient.answer(line)
    }

    /// The screens, main first, as `multihead screens --json` lists them, with the configuration serial
    /// they are (docs/control-socket.md, "The configuration serial").
    public func screens() throws(CommandFailure) -> (configurationSerial: Int, screens: [ScreenJSON]) {
        let answer = try send("screens")
        guard let read = ScreensAnswer(answer: answer) else {
            throw CommandFailure(status: ExitStatus.software, code: "malformedAnswer", message: "the screens answer is not of the contract's form")
        }
        return (read.configurationSerial, read.screens)
    }

    /// The client's own failure to talk to a server (the command line's 69).
    private static func unavailable(_ message: String) -> CommandFailure {
        CommandFailure(status: ExitStatus.unavailable, code: "controlUnavailable", message: message)
    }
}
