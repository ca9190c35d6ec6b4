import ArgumentParser
import Dispatch
import Foundation
import Multihead

/// `multihead watch`: one line per screen event, as it happens.
struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print one line per connect, disconnect or mode change, as it happens.")

    @OptionGroup var options: DisplayOptions
    @Flag(help: "Print JSON lines.")
    var json = false
    @Option(parsing: .unconditional, help: "Exit after this many events.")
    var count: DecimalArgument?
    @Option(parsing: .unconditional, help: "Exit after this many seconds, counted from the start (connecting included).")
    var timeout: DecimalArgument?

    func validate() throws {
        if let count {
            try count.check("--count", in: 1...1e9)
            guard count.value.rounded() == count.value else { throw ValidationError("--count must be a whole number") }
        }
        try timeout?.check("--timeout", in: 0.001...1e9, unit: " s")
    }

    @MainActor
    func run() async throws {
        let start = DispatchTime.now()
        try await withExitStatus {
            // --timeout counts from the start, connecting included: the connection may not wait longer.
            let app = try connectShared(options.display, timeout: min(5, timeout?.value ?? 5))
            var seen = 0
            let json = self.json, count = self.count.map { Int($0.value) }
            let stream = app.screenEvents()
            let printer = Task { @MainActor in
                for await e in stream {
                    print(json ? jsonLine(Self.json(e, app)) : Self.text(e))
                    flushStandardOutput()
                    seen += 1
                    if let count, seen >= count { app.stop() }
                }
            }
            defer { printer.cancel() }
            // On stderr, so that stdout stays one line per event: a reader knows from here on nothing is missed.
            printError("watching \(options.display ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""): \(app.screens.count) screens")
            if let timeout {
                DispatchQueue.main.asyncAfter(deadline: start + timeout.value) { MainActor.assumeIsolated { app.stop() } }
            }
            try await app.run()
        }
    }

    @MainActor
    static func json(_ e: ScreenEvent, _ app: Application) -> ScreenEventJSON { ScreenEventJSON(e, app: app) }

    /// "modeChange EXT-1 (1920.0, 0.0, 1280.0, 720.0) 1280x720@60Hz", and for a mode change what it was.
    @MainActor
    static func text(_ e: ScreenEvent) -> String {
        let s = e.screen
        func mode(_ m: ScreenMode?) -> String { m.map { "\($0)" } ?? "-" }
        var line = "\(e.name) \(s.name.terminalEscaped) \(s.frame) \(mode(s.currentMode))"
        if case .modeChange(_, let before) = e { line += " (was \(before.frame) \(mode(before.currentMode)))" }
        return line
    }
}
