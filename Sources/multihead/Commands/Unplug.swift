import ArgumentParser
import Multihead
import MultiheadServerControl
import MultiheadX11

extension MultiheadCommand {
    /// `multihead unplug NAME`: remove a virtual monitor.
    struct Unplug: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unplug", abstract: "Unplug a virtual monitor from the X server.")

        @OptionGroup var options: DisplayOptions
        @Argument(help: "The monitor's name.")
        var name: String
        @Flag(help: "Change the monitors of a server the kit did not start.")
        var force = false
        @Flag(help: "Unplugging the primary: keep X's rule (the primary stays on the dark output) instead of making the new main screen's output primary.")
        var keepPrimary = false

        func validate() throws { try validateMonitorName(name) }

        @MainActor
        func run() async throws {
            // With MULTIHEAD_CONTROL set the command never gets here: `Entry` sends its arguments to the server.
            try await withExitStatus {
                let control = try ServerControl(display: options.display)
                defer { control.close() }
                try refuseOnDesktop(control, force: force)
                try perform(control)
            }
        }

        /// Unplugs the monitor: the command's work, for the command line and the control socket alike.
        @MainActor
        func perform(_ control: ServerControl) throws {
            try control.unplug(name, keepPrimary: keepPrimary)
        }
    }
}
