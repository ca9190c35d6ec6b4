import ArgumentParser
import MultiheadControl
import MultiheadService

extension MultiheadCommand {
    /// `multihead plug NAME WxH+X+Y`: add a virtual monitor, or light an output (with an EDID when asked).
    /// Its arguments are `PlugRequest`'s, the socket's `plug` fields.
    struct Plug: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plug", abstract: "Plug a virtual monitor into the X server (refused on a desktop with real monitors unless --force).")

        @OptionGroup var target: ChangeTarget
        @OptionGroup var request: PlugRequest

        @MainActor
        func run() async throws {
            try await withExitStatus { try target.change { try request.perform($0) } }
        }
    }
}
