import ArgumentParser
import Multihead
import MultiheadControl
import MultiheadServerControl

extension MultiheadCommand {
    /// `multihead mode NAME WxH [--rate HZ]`: switch a monitor's mode. Its arguments are `ModeRequest`'s,
    /// the socket's `mode` fields.
    struct Mode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mode", abstract: "Set a monitor's mode: an output gets a WxH mode (the one nearest --rate; made if the server has none of that size); a virtual monitor is resized.")

        @OptionGroup var options: DisplayOptions
        @OptionGroup var request: ModeRequest
        @Flag(help: "Change the monitors of a server the kit did not start.")
        var force = false

        @MainActor
        func run() async throws {
            try await withExitStatus {
                // With MULTIHEAD_CONTROL set the command never gets here: `Entry` sends the request to the server.
                let control = try ServerControl(display: options.display)
                defer { control.close() }
                try refuseOnDesktop(control, force: force)
                let mode = try request.perform(control)
                try StandardOutput.line("\(request.name.terminalEscaped): \(mode)")
            }
        }
    }
}
