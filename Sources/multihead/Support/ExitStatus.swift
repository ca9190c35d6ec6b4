import ArgumentParser
import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11

/// The exit statuses of the command line contract (sysexits.h).
enum ExitStatus {
    /// A person's mistake on the command line.
    static let usage: Int32 = 64
    /// No X server reachable.
    static let unavailable: Int32 = 69
    /// Anything else that went wrong.
    static let software: Int32 = 70
    /// A file that cannot be created (a full disk), with the reason.
    static let cantCreate: Int32 = 73
    /// Output that could not be written (standard output full, closed or failing), with the reason.
    static let ioError: Int32 = 74
}

/// Prints a message on stderr, prefixed with the tool's name.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("multihead: \(message)\n".utf8))
}

/// Runs a command body, turning errors into the contract's exit statuses with a one-line reason.
@MainActor
func withExitStatus(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        throw exitCode(for: error)
    }
}

/// The contract's exit status for an error, its one-line reason printed on stderr.
func exitCode(for error: any Error) -> ExitCode {
    if let e = error as? ExitCode { return e }
    let failure = CommandFailure(error)
    printError(failure.message)
    return ExitCode(failure.status)
}

/// What an error means to the command line contract and the control socket: the exit status, a stable
/// code (the error's case, as `X11Error.code` names it) and the one-line reason.
struct CommandFailure: Error, Equatable {
    var status: Int32
    var code: String
    var message: String

    init(status: Int32, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// A failure the control socket can answer with: the code's own status.
    init(_ code: ControlErrorCode, message: String) {
        self.init(status: code.status, code: code.rawValue, message: message)
    }

    init(_ error: any Error) {
        let code: String
        switch error {
        case let e as CommandFailure:
            self = e
            return
        case let e as ExitCode:
            self.init(status: e.rawValue, code: "exit", message: "exit status \(e.rawValue)")
            return
        case let e as X11Error: code = e.code
        case is UsageError: code = ControlErrorCode.usage.rawValue
        case let e as VirtualServerError: code = e.code
        // Every case is a person's mistake: a name, frame, rate, point or key the server cannot take.
        case let e as ServerControlError: code = e.code
        case let e as BitmapError: code = if case .cannotRead = e { "cannotRead" } else { "cannotWrite" }
        case is ServerEnded: code = ControlErrorCode.serverEnded.rawValue
        case let e as ScreenError: code = e.code
        case is OutputError: code = ControlErrorCode.outputFailed.rawValue
        case let e as ControlRefusal: code = e.code.rawValue
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

/// A mistake in what a person asked for, found after parsing.
struct UsageError: Error {
    let message: String
}

/// Connects the shared application to the X server; a server that does not answer within `timeout`
/// seconds (connecting included) is `notResponding`.
@MainActor
func connectShared(_ display: String?, timeout: Double = 5) throws -> Application {
    let app = Application.shared
    try app.attach(X11Backend(display: display, timeout: timeout))
    return app
}

/// Whether standard output's reader has gone (a pipe's POLLERR, a terminal's or socket's POLLHUP), without
/// waiting. `poll`.
func standardOutputHungUp() -> Bool {
    var p = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
    return poll(&p, 1, 0) > 0 && p.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
}

/// The exit status of a streaming command whose reader left: 128 + SIGPIPE, what the shell reports for a
/// process SIGPIPE ended, without a message (nobody is there to read one).
let readerGoneStatus: Int32 = 141

