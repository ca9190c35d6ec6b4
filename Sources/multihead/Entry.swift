import ArgumentParser
import Foundation

/// The program's entry: `multihead screens`, the command scripts run most, is answered without the
/// argument parser, whose reflection over every command was a third of the start-up. Anything else,
/// help and mistakes included, goes to the parser, which says the same things as before.
@main
enum Entry {
    @MainActor
    static func main() async {
        if let fast = Screens.fastArguments(CommandLine.arguments.dropFirst()) {
            do {
                try await withExitStatus { try Screens.list(display: fast.display, json: fast.json) }
                exit(0)
            } catch let e as ExitCode {
                exit(e.rawValue)
            } catch {
                exit(ExitStatus.software)
            }
        }
        await MultiheadCommand.main(nil)
    }
}
