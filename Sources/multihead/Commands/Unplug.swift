import ArgumentParser
import MultiheadControl
import MultiheadService

extension MultiheadCommand {
    /// `multihead unplug NAME`: remove a virtual monitor, or pull an output's cable. Its arguments are
    /// `UnplugRequest`'s, the socket's `unplug` fields.
    struct Unplug: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unplug", abstract: "Unplug a virtual monitor from the X server.")

        @OptionGroup var target: ChangeTarget
        @OptionGroup var request: UnplugRequest

        @MainActor
        func run() async throws {
            try await withExitStatus { try target.change { try request.perform($0) } }
        }
    }
}
