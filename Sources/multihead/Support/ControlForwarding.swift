import Foundation
import Multihead
import MultiheadControl

/// `plug`, `unplug` and `mode` with `MULTIHEAD_CONTROL` set (inside `multihead run`, or beside
/// `multihead server`), answered before the argument parser starts (its reflection over a command was
/// seven times the rest of such a run): the words become the request's value by the request's
/// declaration, the same parse the command runs (`RequestDeclaration.parse`), and the value is sent. What
/// only the argument parser answers (help, `--display` naming another server) stays with it (nil).
enum ControlForwarding {
    /// The exit status, having printed what the command prints; nil when the parser should answer.
    static func forward(_ args: [String]) -> Int32? {
        guard let path = ControlClient.socket(nil), let first = args.first, let words = requestWords(Array(args.dropFirst())) else { return nil }
        switch first {
        case "plug": return send(PlugRequest.self, words, to: path)
        case "unplug": return send(UnplugRequest.self, words, to: path)
        case "mode": return send(ModeRequest.self, words, to: path)
        default: return nil
        }
    }

    /// The words the request's declaration reads: the command's own `--force` dropped (the socket acts
    /// only on its own server, which needs none). Nil when a word is the argument parser's: help, or
    /// `--display`, which names another server than the socket's.
    static func requestWords(_ args: [String]) -> [String]? {
        var words: [String] = []
        for (i, word) in args.enumerated() {
            if word == "--" { return words + args[i...] }
            if ["-h", "--help", "--display"].contains(word) || word.hasPrefix("--display=") { return nil }
            if word != "--force" { words.append(word) }
        }
        return words
    }

    /// Parses, sends and prints one request; its exit status.
    private static func send<R: ControlRequestValue>(_ type: R.Type, _ words: [String], to path: String) -> Int32 {
        do {
            let request = try R.declaration.parse(words, command: R.name.rawValue)
            let answer = try ControlClient.send(request, to: path)
            if R.self == ModeRequest.self, let set = ModeAnswer(answer: answer) {
                let m = set.mode
                let mode = ScreenMode(width: m.width, height: m.height, refreshRate: m.refreshRate, isInterlaced: m.interlaced)
                try StandardOutput.line("\(set.name.terminalEscaped): \(mode)")
            }
            return 0
        } catch let failure as CommandFailure {
            printError(failure.message)
            return failure.status
        } catch {
            return exitCode(for: error).rawValue
        }
    }
}
