import MultiheadControl
import MultiheadTesting

/// What `multihead server` and `multihead run` hold behind their control socket, whatever the kind:
/// `ControlService` for the kit's X servers, `WaylandControlService` for Multihead's compositor.
@MainActor
package protocol ControlServing: AnyObject {
    /// The answer to one request, as one line.
    func answer(_ request: ControlRequest) async -> [UInt8]
    /// Ends the server whatever its state, without a reset for a next test: the process is ending.
    func end()
    /// Whether the server process of this PID is the one running now: the end of another is no news.
    func isRunning(_ pid: Int32) -> Bool
    /// The server running now in a person's words ("the X server at :3"), nil when none runs.
    var runningDescription: String? { get }
}

extension ControlService: ControlServing {
    /// "the X server at :3", while one runs.
    package var runningDescription: String? { running.map { "the X server at \($0.display)" } }
}

extension WaylandServerError: ControlCodedError {
    /// The socket's code for a compositor's fault: its refusals by the compositor's own code (a name
    /// not plugged is `noSuchScreen`, a value out of range `invalidMonitor`, a file `cannotWrite`).
    package var controlCode: ControlErrorCode {
        switch self {
        case .compositorNotFound: .notInstalled
        case .didNotStart: .didNotStart
        case .notResponding: .notResponding
        case .ended: .serverEnded
        case .malformedAnswer: .internal
        case .unsendable: .usage
        case .refused(let command, let code, _):
            switch code {
            case "no-such-output", "no-outputs": .noSuchScreen
            case "no-such-window": .noSuchWindow
            case "bad-value" where command.hasPrefix("move-window") || command.hasPrefix("fullscreen-window"): .invalidInput
            case "output-exists", "bad-value": .invalidMonitor
            case "usage", "line-too-long", "too-large": .usage
            case "unsupported": .invalidInput
            case "io": .cannotWrite
            default: .internal
            }
        }
    }
}
