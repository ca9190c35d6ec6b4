import ArgumentParser
import Multihead
import MultiheadControl
import MultiheadServerControl
import MultiheadX11

extension MultiheadCommand {
    /// `multihead plug NAME WxH+X+Y`: add a virtual monitor, or light an output (with an EDID when asked).
    /// Its arguments are `PlugRequest`'s, the socket's `plug` fields.
    struct Plug: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plug", abstract: "Plug a virtual monitor into the X server (refused on a desktop with real monitors unless --force).")

        @OptionGroup var options: DisplayOptions
        @OptionGroup var request: PlugRequest
        @Flag(help: "Change the monitors of a desktop that has real ones.")
        var force = false

        @MainActor
        func run() async throws {
            // With MULTIHEAD_CONTROL set the command never gets here: `Entry` sends the request to the server.
            try await withExitStatus {
                let control = try ServerControl(display: options.display)
                defer { control.close() }
                try refuseOnDesktop(control, force: force)
                try request.perform(control)
            }
        }
    }
}

/// Changing the monitors of a server someone else started surprises its user: only the kit's own
/// servers (marked on their root window) change without --force.
@MainActor
func refuseOnDesktop(_ control: ServerControl, force: Bool) throws {
    if !force && !control.isPrivateServer {
        throw UsageError(message: "\(control.displayName) is not a server multihead started; pass --force to change its monitors")
    }
}

/// The usage error for a geometry or size that starts with "-", which the parser would take for an
/// option ("Missing expected argument"): a size or a position cannot be negative.
func negativeGeometry(in arguments: [String]) -> String? {
    guard let command = arguments.first, ["plug", "mode"].contains(command) else { return nil }
    // "-100x100+0+0": a minus, digits, an x. A negative number alone ("--rate -5") is the parser's to judge.
    func looksLikeGeometry(_ s: String) -> Bool {
        let body = s.dropFirst()
        return s.hasPrefix("-") && body.first?.isNumber == true && body.drop { $0.isNumber }.first.map { $0 == "x" || $0 == "X" } == true
    }
    guard let bad = arguments.dropFirst().first(where: looksLikeGeometry) else { return nil }
    return "\"\(bad.terminalEscaped)\" is not a geometry: a size or a position cannot be negative"
}
