import ArgumentParser
import Dispatch
import Foundation

/// The program's entry. `multihead screens`, the command scripts run most, is answered on the main thread
/// before anything else starts: no argument parser (its reflection over every command was a third of the
/// start-up) and no concurrency runtime (its first task costs a thread). Anything else, help and mistakes
/// included, goes to the parser, which says the same things as before.
@main
enum Entry {
    static func main() {
        if let fast = Screens.fastArguments(CommandLine.arguments.dropFirst()) {
            // The main thread is the main actor's until dispatchMain() hands the main queue to the pool.
            let status = MainActor.assumeIsolated {
                do {
                    try Screens.list(display: fast.display, json: fast.json)
                    return Int32(0)
                } catch {
                    return exitCode(for: error).rawValue
                }
            }
            exit(status)
        }
        Task { @MainActor in
            await MultiheadCommand.main(nil)
            exit(0)
        }
        dispatchMain()
    }
}
