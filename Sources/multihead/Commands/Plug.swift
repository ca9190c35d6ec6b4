import ArgumentParser
import MultiheadControl
import MultiheadService

extension MultiheadCommand {
    /// `multihead plug NAME WxH+X+Y`: add a virtual monitor, or light an output (with an EDID when asked).
    /// Its words are `PlugRequest`'s, read by its declaration (the socket's `plug` fields).
    struct Plug: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plug", abstract: "Plug a virtual monitor into the X server (refused on a desktop with real monitors unless --force).",
            usage: PlugRequest.declaration.usage("multihead plug", adding: ChangeTarget.usage), discussion: PlugRequest.declaration.help)

        @OptionGroup var target: ChangeTarget
        @Argument(parsing: .allUnrecognized, help: .hidden) var words: [String] = []

        @MainActor
        func run() async throws {
            try await withExitStatus {
                let request = try PlugRequest.declaration.parse(words, command: "plug")
                try target.change { try request.perform($0) }
            }
        }
    }
}
