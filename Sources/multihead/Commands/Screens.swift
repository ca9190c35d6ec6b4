import ArgumentParser
import Multihead

/// `multihead screens`: the screens, main first.
struct Screens: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the screens, main first.")

    @OptionGroup var options: DisplayOptions
    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    @MainActor
    func run() async throws {
        try await withExitStatus {
            let app = try connectShared(options.display)
            let rows = app.screens.map { ScreenJSON($0, isMain: $0 === app.mainScreen) }
            print(json ? jsonLine(rows) : Self.table(rows))
        }
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

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
