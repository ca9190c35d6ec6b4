import ArgumentParser
import MultiheadControl
import MultiheadService

extension MultiheadCommand {
    /// `multihead unplug NAME`: remove a virtual monitor, or pull an output's cable. Its words are
    /// `UnplugRequest`'s, read by its declaration (the socket's `unplug` fields).
    struct Unplug: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unplug", abstract: "Unplug a virtual monitor from the X server.",
            usage: UnplugRequest.declaration.usage("multihead unplug", adding: ChangeTarget.usage), discussion: UnplugRequest.declaration.help)

        @OptionGroup var target: ChangeTarget
        @Argument(parsing: .allUnrecognized, help: .hidden) var words: [String] = []

        @MainActor
        func run() async throws {
            try await withExitStatus {
                let request = try UnplugRequest.declaration.parse(words, command: "unplug")
                try target.change { try request.perform($0) }
            }
        }
    }
}
