import ArgumentParser
import Multihead
import MultiheadControl
import MultiheadService
import MultiheadServerControl

extension MultiheadCommand {
    /// `multihead windows [--json]`: the top-level windows, front first.
    struct Windows: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "windows",
            abstract: "List the top-level windows, front first: id, screen, frame, state, pid, application and title.")

        @OptionGroup var options: DisplayOptions
        @Flag(help: "Print a JSON array instead of a table.")
        var json = false

        @MainActor
        func run() async throws {
            try await withExitStatus {
                let rows: [WindowJSON]
                if let socket = ControlClient.socket(options.display) {
                    guard let answer = WindowsAnswer(answer: try ControlClient.send(.windows, [], to: socket)) else {
                        throw CommandFailure(status: ExitStatus.software, code: "malformedAnswer", message: "the control socket's answer has no windows")
                    }
                    rows = answer.windows
                } else {
                    let control = try ServerControl(display: options.display)
                    defer { control.close() }
                    rows = try control.windows().map(WindowJSON.init)
                }
                try StandardOutput.line(json ? rows.json.bytes : Array(Self.table(rows).utf8))
            }
        }

        /// id, screen, frame, state, pid, application, title: a window a line.
        static func table(_ rows: [WindowJSON]) -> String {
            let header = ["ID", "SCREEN", "FRAME", "STATE", "PID", "APP", "TITLE"]
            let body = rows.map { w -> [String] in
                [String(w.id), w.screen?.terminalEscaped ?? "-", geometry(w.frame), w.state,
                 w.pid.map(String.init) ?? "-", w.appId.terminalEscaped, w.title.terminalEscaped]
            }
            let all = [header] + body
            let widths = header.indices.map { i in all.map { $0[i].count }.max() ?? 0 }
            return all.map { row in
                row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                    .joined(separator: "  ").trimmingTrailingSpaces()
            }.joined(separator: "\n")
        }
    }

    /// `multihead move-window ID SCREEN [--x X --y Y [--width W --height H]]`: a window put on a screen.
    struct MoveWindow: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move-window",
            abstract: "Put a window on a screen: at --x/--y from its top-left corner (default: the corner), resized to --width/--height; out of fullscreen or maximized first.",
            usage: MoveWindowRequest.declaration.usage("multihead move-window", adding: "[--display <display>]"),
            discussion: MoveWindowRequest.declaration.help)

        @OptionGroup var options: DisplayOptions
        @Argument(parsing: .allUnrecognized, help: .hidden) var words: [String] = []

        @MainActor
        func run() async throws {
            try await withExitStatus {
                let request = try MoveWindowRequest.declaration.parse(words, command: "move-window")
                try printWindow(options.display, request) { try request.perform($0) }
            }
        }
    }

    /// `multihead fullscreen-window ID SCREEN`: a window made to fill a screen.
    struct FullscreenWindow: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fullscreen-window", abstract: "Make a window fill a screen (as its window manager's fullscreen would).",
            usage: FullscreenWindowRequest.declaration.usage("multihead fullscreen-window", adding: "[--display <display>]"),
            discussion: FullscreenWindowRequest.declaration.help)

        @OptionGroup var options: DisplayOptions
        @Argument(parsing: .allUnrecognized, help: .hidden) var words: [String] = []

        @MainActor
        func run() async throws {
            try await withExitStatus {
                let request = try FullscreenWindowRequest.declaration.parse(words, command: "fullscreen-window")
                try printWindow(options.display, request) { try request.perform($0) }
            }
        }
    }
}

/// Sends a window request to the control socket when there is one, else performs it on the display; prints
/// the window as it is then, as `windows`' table of one.
@MainActor
private func printWindow<R: ControlRequestValue>(_ display: String?, _ request: R, _ perform: (ServerControl) throws -> ServerWindow) throws {
    let window: WindowJSON
    if let socket = ControlClient.socket(display) {
        guard let w = try ControlClient.send(request, to: socket)["window"].flatMap(WindowJSON.init(json:)) else {
            throw CommandFailure(status: ExitStatus.software, code: "malformedAnswer", message: "the control socket's answer has no window")
        }
        window = w
    } else {
        let control = try ServerControl(display: display)
        defer { control.close() }
        window = WindowJSON(try perform(control))
    }
    try StandardOutput.line(MultiheadCommand.Windows.table([window]))
}

/// X's geometry form: "800x600+1024+0", "800x600-5+0" for a negative position.
private func geometry(_ f: ScreenJSON.Frame) -> String {
    let sign = { (v: Int) in v < 0 ? String(v) : "+" + String(v) }
    return "\(f.width)x\(f.height)" + sign(f.x) + sign(f.y)
}
