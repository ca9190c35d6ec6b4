import ArgumentParser
import MultiheadControl
import MultiheadServerControl

extension MultiheadCommand {
    /// `multihead unplug NAME`: remove a virtual monitor, or pull an output's cable. Its arguments are
    /// `UnplugRequest`'s, the socket's `unplug` fields.
    struct Unplug: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unplug", abstract: "Unplug a virtual monitor from the X server.")

        @OptionGroup var options: DisplayOptions
        @OptionGroup var request: UnplugRequest
        @Flag(help: "Change the monitors of a server the kit did not start.")
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
