import ArgumentParser
import Multihead
import MultiheadControl
import MultiheadService

extension MultiheadCommand {
    /// `multihead mode NAME WxH [--rate HZ]`: switch a monitor's mode. Its words are `ModeRequest`'s, read
    /// by its declaration (the socket's `mode` fields).
    struct Mode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mode", abstract: "Set a monitor's mode: an output gets a WxH mode (the one nearest --rate; made if the server has none of that size); a virtual monitor is resized.",
            usage: ModeRequest.declaration.usage("multihead mode", adding: ChangeTarget.usage), discussion: ModeRequest.declaration.help)

        @OptionGroup var target: ChangeTarget
        @Argument(parsing: .allUnrecognized, help: .hidden) var words: [String] = []

        @MainActor
        func run() async throws {
            try await withExitStatus {
                let request = try ModeRequest.declaration.parse(words, command: "mode")
                let mode = try target.change { try request.perform($0) }
                try StandardOutput.line("\(request.name.terminalEscaped): \(mode)")
            }
        }
    }
}
