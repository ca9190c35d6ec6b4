import Foundation
import Multihead

/// Why Multihead's Wayland compositor could not be found, started or driven.
public enum WaylandServerError: Error, Equatable, CustomStringConvertible {
    /// No compositor binary where the kit looks: `MULTIHEAD_COMPOSITOR`, the installed one, the checkout's
    /// build. `searched` lists the paths tried, in order.
    case compositorNotFound(searched: [String])
    /// The compositor exited, or printed no ready line within the bound; `log` is the end of its stderr.
    case didNotStart(binary: String, log: String)
    /// The compositor answered a command with `error CODE reason` (its README's table of codes).
    case refused(command: String, code: String, reason: String)
    /// The compositor gave no answer within the bound.
    case notResponding(command: String, seconds: Double)
    /// The compositor has ended (its stdout closed): no answer will come.
    case ended(pid: Int32)
    /// The compositor's answer was not of the contract's form.
    case malformedAnswer(command: String, answer: String)
    /// A value holds a control character (a line feed in a path, say), which the compositor's line protocol
    /// cannot carry: nothing was sent.
    case unsendable(command: String, value: String)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .compositorNotFound(let searched):
            "Multihead's Wayland compositor is not built: none at \(searched.map(\.terminalEscaped).joined(separator: ", ")); "
                + "run Scripts/build-compositor in the checkout (it needs libwlroots-dev, libwayland-dev, wayland-protocols "
                + "and xwayland: Scripts/setup installs them), or point MULTIHEAD_COMPOSITOR at a multihead-compositor binary"
        case .didNotStart(let binary, let log):
            "\(binary.terminalEscaped) did not start: \(log.isEmpty ? "no output" : log.terminalEscaped)"
        case .refused(let command, _, let reason): "the compositor refused \(command.terminalEscaped): \(reason.terminalEscaped)"
        case .notResponding(let command, let s): "the compositor gave no answer to \(command.terminalEscaped) within \(s) s"
        case .ended(let pid): "the Wayland compositor (PID \(pid)) has ended"
        case .malformedAnswer(let command, let answer):
            "the compositor answered \(command.terminalEscaped) with \(answer.terminalEscaped), which is neither ok nor error"
        case .unsendable(let command, let value):
            "\(value.terminalEscaped) has a control character, which the Wayland compositor's \(command.terminalEscaped) cannot take"
        }
    }

    /// The compositor's own code of a refusal (`no-such-output`, `bad-value`…), nil for the kit's faults.
    public var compositorCode: String? {
        if case .refused(_, let code, _) = self { return code }
        return nil
    }
}
