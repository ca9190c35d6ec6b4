import ArgumentParser
import Foundation
import Multihead
import MultiheadControl
import MultiheadTesting
import MultiheadX11

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

