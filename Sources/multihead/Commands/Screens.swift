import ArgumentParser
import Multihead
import MultiheadControl
import MultiheadX11

extension MultiheadCommand {
    /// `multihead screens`: the screens, main first.
    struct Screens: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "screens", abstract: "List the screens, main first.")

        @OptionGroup var options: DisplayOptions
        @Flag(help: "Print a JSON array instead of a table.")
        var json = false
        @Flag(help: "With --json: print {\"configurationSerial\":N,\"screens\":[…]}, the screens and the configuration serial they are (docs/control-socket.md).")
        var serial = false

        func validate() throws {
            if serial && !json { throw ValidationError("--serial goes with --json") }
        }

        @MainActor
        func run() async throws {
            try await withExitStatus { try Self.list(display: options.display, json: json, serial: serial) }
        }

        /// Prints the screens of the server at `display`, as JSON or as a table: read once, in the model's
        /// order (main first) and with its mirror rule, without an application (nothing to watch or show).
        @MainActor
        static func list(display: String?, json: Bool, serial: Bool = false) throws {
            let answer: ScreensAnswer
            if let socket = ControlClient.socket(display) {
                guard let read = ScreensAnswer(answer: try ControlClient.send(.screens, [], to: socket)) else {
                    throw CommandFailure(status: ExitStatus.software, code: "malformedAnswer", message: "the control socket's answer has no screens")
                }
                answer = read
            } else {
                let read = try X11Backend.configuration(display: display)
                answer = ScreensAnswer(screens: ScreenJSON.rows(read.screens), configurationSerial: Int(read.serial))
            }
            // One write(2), not print: print's dynamic casts of its argument were the screens path's only
            // protocol-conformance lookups.
            let rows = answer.screens
            let text: [UInt8] = !json ? Array(table(rows).utf8)
                : serial ? JSONText.members([("configurationSerial", .int(answer.configurationSerial)), ("screens", rows.json)]).bytes
                : rows.json.bytes
            try StandardOutput.line(text)
        }

        /// `screens [--json] [--display D | --display=D]`, exactly, read without the argument parser; nil for
        /// anything else (help, a mistake), which the parser answers.
        static func fastArguments(_ args: some Collection<String>) -> (display: String?, json: Bool, serial: Bool)? {
            var rest = Array(args)
            guard rest.first == "screens" else { return nil }
            rest.removeFirst()
            var json = false, serial = false, display: String?
            while let a = rest.first {
                rest.removeFirst()
                if a == "--json", !json {
                    json = true
                } else if a == "--serial", !serial {
                    serial = true
                } else if a == "--display", display == nil, let v = rest.first, !v.hasPrefix("-") {
                    display = v
                    rest.removeFirst()
                } else if a.hasPrefix("--display="), display == nil {
                    display = String(a.dropFirst("--display=".count))
                } else {
                    return nil
                }
            }
            // --serial without --json: the parser says why.
            return serial && !json ? nil : (display, json, serial)
        }

        /// name, main mark, frame, physical size, current mode and Hz, number of modes.
        static func table(_ rows: [ScreenJSON]) -> String {
            let header = ["NAME", "MAIN", "FRAME", "SIZE(mm)", "MODE", "MODES"]
            let body = rows.map { r -> [String] in
                let mode = r.currentMode.map { "\($0.width)x\($0.height)" + ($0.interlaced ? "i" : "") + "@" + hz($0.refreshRate) } ?? "-"
                return [r.name.terminalEscaped, r.main ? "*" : "", "\(r.frame.width)x\(r.frame.height)+\(r.frame.x)+\(r.frame.y)",
                        "\(r.physicalSize.width)x\(r.physicalSize.height)", mode, "\(r.modes.count)"]
            }
            let all = [header] + body
            let widths = header.indices.map { i in all.map { $0[i].count }.max() ?? 0 }
            return all.map { row in
                row.enumerated().map { i, cell in cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                    .joined(separator: "  ").trimmingTrailingSpaces()
            }.joined(separator: "\n")
        }

        /// "60Hz", "59.94Hz", "143.86Hz"; "?Hz" when the server does not say.
        static func hz(_ v: Double) -> String { v > 0 ? String(rate: v) + "Hz" : "?Hz" }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
