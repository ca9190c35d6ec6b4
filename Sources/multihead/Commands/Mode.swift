import ArgumentParser
import Multihead
import MultiheadServerControl
import MultiheadX11

extension MultiheadCommand {
    /// `multihead mode NAME WxH [--rate HZ]`: switch a monitor's mode.
    struct Mode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mode", abstract: "Set a monitor's mode: an output gets a WxH mode (the one nearest --rate; made if the server has none of that size); a virtual monitor is resized.")

        @OptionGroup var options: DisplayOptions
        @Argument(help: "The monitor's name (an output such as DUMMY1, or a virtual monitor).")
        var name: String
        @Argument(help: "The size, WxH.")
        var size: String
        @Option(parsing: .unconditional,
                help: "The refresh rate in Hz: the mode of that size nearest to it, within 0.5 Hz (default: the preferred, else the fastest progressive one).")
        var rate: DecimalArgument?
        @Flag(help: "Change the monitors of a server the kit did not start.")
        var force = false

        func validate() throws {
            let r = try pixelGeometry(size, example: "1280x720")
            guard r.origin == .zero, r.width <= 32767, r.height <= 32767 else {
                throw ValidationError("\"\(size.terminalEscaped)\" is not a size like 1280x720, at most 32767x32767")
            }
            try rate?.check("--rate", in: 1...1000, unit: " Hz")
            guard name != "screen" else {
                throw ValidationError("\"screen\" is Xvfb's own output, whose modes belong to the framebuffer; plug a named monitor and change that")
            }
        }

        @MainActor
        func run() async throws {
            try await withExitStatus {
                // With MULTIHEAD_CONTROL set the command never gets here: `Entry` sends its arguments to the server.
                let control = try ServerControl(display: options.display)
                defer { control.close() }
                try refuseOnDesktop(control, force: force)
                let mode = try perform(control)
                try StandardOutput.line("\(name.terminalEscaped): \(mode)")
            }
        }

        /// Sets the mode: the command's work, for the command line and the control socket alike.
        @MainActor
        func perform(_ control: ServerControl) throws -> ScreenMode {
            let r = try pixelGeometry(size, example: "1280x720")
            return try control.setMode(name, size: r.size, refreshRate: rate?.value)
        }
    }
}
