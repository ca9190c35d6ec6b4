import ArgumentParser
import Multihead

/// The exit statuses of the command line contract (sysexits.h), which the control socket's answers carry.
package enum ExitStatus {
    /// A person's mistake on the command line.
    package static let usage: Int32 = 64
    /// No X server reachable.
    package static let unavailable: Int32 = 69
    /// Anything else that went wrong.
    package static let software: Int32 = 70
    /// A file that cannot be created (a full disk), with the reason.
    package static let cantCreate: Int32 = 73
    /// Output that could not be written (standard output full, closed or failing), with the reason.
    package static let ioError: Int32 = 74
}

/// An error that names its own control code: what a front end's own errors (standard output that failed,
/// the server that ended under `run`) tell `CommandFailure`.
package protocol ControlCodedError: Error, CustomStringConvertible {
    /// The code it is answered and exited with.
    var controlCode: ControlErrorCode { get }
}

/// What an error means to the command line contract and the control socket: the exit status, a stable
/// code (the error's case, as `X11Error.code` names it) and the one-line reason. A `ControlConnection`
/// throws a refused request's as the socket answered it (docs/control-socket.md, "Error codes").
public struct CommandFailure: Error, Equatable, CustomStringConvertible {
    /// The exit status the command line gives it (64 a person's mistake, 69 no server, 70 anything else…).
    public var status: Int32
    /// The stable code, such as `invalidMonitor` or `noLease`.
    public var code: String
    /// The one-line reason.
    public var message: String

    /// The code and the reason.
    public var description: String { "\(code): \(message)" }

    package init(status: Int32, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// A failure the control socket can answer with: the code's own status.
    package init(_ code: ControlErrorCode, message: String) {
        self.init(status: code.status, code: code.rawValue, message: message)
    }

    package init(_ error: any Error) {
        let code: String
        switch error {
        case let e as CommandFailure:
            self = e
            return
        case is UsageError: code = ControlErrorCode.usage.rawValue
        case let e as ScreenError: code = e.code
        case let e as ControlRefusal: code = e.code.rawValue
        // The errors of the layers below the protocol (X, the kit, `ServerControl`) name their codes
        // through this protocol, conformed where those layers meet it (MultiheadService).
        case let e as any ControlCodedError: code = e.controlCode.rawValue
        default: code = ControlErrorCode.internal.rawValue
        }
        // The status is the code's (`ControlErrorCode`): one table for the socket and the command line.
        let known = ControlErrorCode(rawValue: code) ?? .internal
        let message = switch error {
        case let e as UsageError: e.message
        case let e as ControlRefusal: e.message
        default: "\(error)"
        }
        self.init(status: known.status, code: known.rawValue, message: message)
    }
}

extension CommandFailure {
    /// What an error says to a client of the socket: a declaration's `validate()` refusal is a usage error
    /// with its own words, anything else as `init(_:)` reads it.
    package static func answering(_ error: any Error) -> CommandFailure {
        if let e = error as? ValidationError { return CommandFailure(.usage, message: e.message) }
        return CommandFailure(error)
    }
}

/// A mistake in what a person asked for, found after parsing.
package struct UsageError: Error {
    package let message: String

    package init(message: String) { self.message = message }
}
