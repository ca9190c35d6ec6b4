import ArgumentParser
import Dispatch
import Foundation
import MultiheadControl
import MultiheadX11

/// The program's entry. `multihead screens`, the command scripts run most, is answered on the main thread
/// before anything else starts: no argument parser (its reflection over every command was a third of the
/// start-up) and no concurrency runtime (its first task costs a thread); so are `plug`, `unplug` and `mode`
/// with `MULTIHEAD_CONTROL` set (parsed by their own command alone, the request sent to the server).
/// Anything else, help and mistakes included, goes to the whole parser, which says the same things as before.
@main
enum Entry {
    static func main() {
        // Before anything opens a descriptor: a closed stdout must not be reused by the X connection.
        _ = StandardOutput.wasClosedAtStart
        if let fast = MultiheadCommand.Screens.fastArguments(arguments()) {
            // The main thread is the main actor's: nothing runs the main queue elsewhere yet.
            let status = MainActor.assumeIsolated {
                do {
                    try MultiheadCommand.Screens.list(display: fast.display, json: fast.json, serial: fast.serial)
                    return Int32(0)
                } catch {
                    return exitCode(for: error).rawValue
                }
            }
            exit(status)
        }
        // plug, unplug and mode inside `multihead run` (or beside `multihead server`): the server performs them.
        if let status = ControlForwarding.forward(arguments()) { exit(status) }
        runParser()
    }

    /// Everything but the fast path: out of line, so that `main` touches none of a task's metadata.
    @inline(never)
    static func runParser() -> Never {
        Task { @MainActor in
            await MultiheadCommand.main(nil)
            exit(0)
        }
        MainLoop.run()
    }

    /// The arguments after the program's name, read from `argv` here: `CommandLine.arguments` builds its
    /// array through the standard library's generic code, a twentieth of a `multihead screens` run.
    static func arguments() -> [String] {
        var result: [String] = []
        for i in 1..<max(1, Int(CommandLine.argc)) {
            if let p = CommandLine.unsafeArgv[i] { result.append(String(cString: p)) }
        }
        return result
    }
}
