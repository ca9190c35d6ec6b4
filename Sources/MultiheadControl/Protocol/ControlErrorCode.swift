/// Every error code the control socket answers with, each with the exit status it carries (the status
/// the command line exits with for the same fault) and what it means. docs/control-socket.md's table of
/// error codes is this list; a test holds the two together.
package enum ControlErrorCode: String, CaseIterable, Sendable {
    // The request itself.
    case malformedRequest, unknownRequest, unknownField, invalidField, requestTooLong, requestTimeout, noLease, usage
    // What the server or a screen cannot take.
    case invalidMonitor, invalidInput, noSuchScreen, noSuchWindow, disconnected, modeNotAvailable, refused, invalidOption, temporaryDirectoryMissing
    // Who asks, and how many.
    case forbidden, tooManyConnections
    // The X server.
    case cannotOpenDisplay, connectionLost, notResponding, missingExtension, unsupportedVisual
    case notInstalled, didNotStart, xorgDriverMismatch, serverEnded
    case protocolError, requestRefused, systemCall, commandFailed
    // Files.
    case cannotCreate, cannotWrite, cannotRead, outputFailed
    case `internal`

    /// The exit status an answer with this code carries (sysexits.h).
    package var status: Int32 {
        switch self {
        case .malformedRequest, .unknownRequest, .unknownField, .invalidField, .requestTooLong, .requestTimeout, .noLease, .usage,
             .invalidMonitor, .invalidInput, .noSuchScreen, .noSuchWindow, .disconnected, .modeNotAvailable, .refused, .invalidOption,
             .temporaryDirectoryMissing: ExitStatus.usage
        case .forbidden: 77
        case .tooManyConnections, .cannotOpenDisplay, .connectionLost, .notResponding, .missingExtension, .unsupportedVisual,
             .notInstalled, .didNotStart, .xorgDriverMismatch, .serverEnded: ExitStatus.unavailable
        case .protocolError, .requestRefused, .systemCall, .commandFailed, .internal: ExitStatus.software
        case .cannotCreate, .cannotWrite, .cannotRead: ExitStatus.cantCreate
        case .outputFailed: ExitStatus.ioError
        }
    }
}
