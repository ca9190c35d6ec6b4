import ArgumentParser
import Multihead
import MultiheadControl
import MultiheadService

extension MultiheadCommand {
    /// `multihead mode NAME WxH [--rate HZ]`: switch a monitor's mode. Its arguments are `ModeRequest`'s,
    /// the socket's `mode` fields.
    struct Mode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mode", abstract: "Set a monitor's mode: an output gets a WxH mode (the one nearest --rate; made if the server has none of that size); a virtual monitor is resized.")

        @OptionGroup var target: ChangeTarget
        @OptionGroup var request: ModeRequest

        @MainActor
        func run() async throws {
            try await withExitStatus {
                let mode = try target.change { try request.perform($0) }
                try StandardOutput.line("\(request.name.terminalEscaped): \(mode)")
            }
        }
    }
}
