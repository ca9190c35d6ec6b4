import ArgumentParser
import Foundation
import Multihead
import MultiheadControl

/// `plug`, `unplug` and `mode` with `MULTIHEAD_CONTROL` set (inside `multihead run`, or beside
/// `multihead server`): the command's arguments are parsed by that command alone (not the whole tree of
/// commands, most of a run's time) and its request goes to the server, which performs it; what the parser
/// answers itself (help, a mistake, `--display` naming another server) stays with the full parser (nil).
enum ControlForwarding {
    /// The exit status, having printed what the command prints; nil when the parser should answer.
    static func forward(_ args: [String]) -> Int32? {
        guard let path = ControlClient.socket(nil), let first = args.first else { return nil }
        let rest = Array(args.dropFirst())
        do {
            switch first {
            case "plug":
                guard let command = parsed(MultiheadCommand.Plug.self, rest) else { return nil }
                _ = try ControlClient.send(command.request, to: path)
            case "unplug":
                guard let command = parsed(MultiheadCommand.Unplug.self, rest) else { return nil }
                _ = try ControlClient.send(command.request, to: path)
            case "mode":
                guard let command = parsed(MultiheadCommand.Mode.self, rest) else { return nil }
                let answer = try ControlClient.send(command.request, to: path)
                if let set = ModeAnswer(answer: answer) {
                    let m = set.mode
                    let mode = ScreenMode(width: m.width, height: m.height, refreshRate: m.refreshRate, isInterlaced: m.interlaced)
                    try StandardOutput.line("\(set.name.terminalEscaped): \(mode)")
                }
            default: return nil
            }
            return 0
        } catch let failure as CommandFailure {
            printError(failure.message)
            return failure.status
        } catch {
            return exitCode(for: error).rawValue
        }
    }

    /// The command, when its arguments parse and name no other server; else nil.
    private static func parsed<C: ParsableCommand>(_ type: C.Type, _ args: [String]) -> C? {
        guard !args.contains(where: { $0 == "--display" || $0.hasPrefix("--display=") }) else { return nil }
        return try? C.parse(args)
    }
}
