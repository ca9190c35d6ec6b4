import ArgumentParser
import Dispatch
import Foundation
import Multihead
import MultiheadControl
import MultiheadX11

extension MultiheadCommand {
    /// `multihead watch`: one line per screen event, as it happens.
    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch", abstract: "Print one line per connect, disconnect, mode change, main change or brightness change, as it happens.")

        @OptionGroup var options: DisplayOptions
        @Flag(help: "Print JSON lines.")
        var json = false
        @Option(parsing: .unconditional, help: "Exit after this many events.")
        var count: DecimalArgument?
        @Option(parsing: .unconditional, help: "Exit after this many seconds, counted from the start (connecting included).")
        var timeout: DecimalArgument?
        @Flag(help: "Print a first line once watching, before any event: {\"event\":\"ready\",\"screenCount\":N,\"configurationSerial\":S} with --json, else \"ready N\" (not counted by --count). From then on no event is missed.")
        var ready = false

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
                // The X11 backend itself: waiting on the connection and stdout's hang-up is its own API.
                let backend = X11Backend(display: options.display, timeout: min(5, timeout?.value ?? 5))
                let app = Application.shared
                try app.attach(backend)
                var seen = 0, readerGone = false
                let json = self.json, count = self.count.map { Int($0.value) }
                // Printed in the turn that posts the event: the line leaves as soon as the model knows.
                var writeError: OutputError?
                let printer = app.onScreenEvent { e in
                    guard count.map({ seen < $0 }) ?? true, !readerGone, writeError == nil else { return }
                    do {
                        let serial = Int(backend.configurationSerial)
                        try StandardOutput.line(json ? Self.json(e, app, serial).json.bytes : Array(Self.text(e).utf8))
                    } catch let error as OutputError {
                        if error.readerGone { readerGone = true } else { writeError = error }
                    } catch {}
                    seen += 1
                }
                defer { printer.cancel() }
                // On stderr for people; --ready says it on stdout for programs: from here on nothing is missed.
                printError("watching \(options.display ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""): \(app.screens.count) screens")
                if ready {
                    let n = app.screens.filter { !$0.isStandIn }.count
                    let serial = backend.configurationSerial
                    try StandardOutput.line(json ? Array("{\"event\":\"ready\",\"screenCount\":\(n),\"configurationSerial\":\(serial)}".utf8)
                                                 : Array("ready \(n)".utf8))
                }
                app.launch()
                // Watching is all this command does: it waits on the connection itself, one wake-up per event.
                let deadline = timeout.map { Double(start.uptimeNanoseconds) / 1e9 + $0.value }
                // The reader of stdout leaving ends the watch at once, events or not: 141, quietly.
                while count.map({ seen < $0 }) ?? true {
                    if let writeError { throw writeError }
                    if readerGone || standardOutputHungUp() { throw ExitCode(readerGoneStatus) }
                    let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
                    if let deadline, now >= deadline { break }
                    guard backend.waitForEvents(timeout: deadline.map { $0 - now } ?? .infinity, orHangUpOf: STDOUT_FILENO) else { break }
                }
                if let writeError { throw writeError }
                if readerGone { throw ExitCode(readerGoneStatus) }
                if let error = app.connectionError { throw error }
            }
        }

        @MainActor
        static func json(_ e: ScreenEvent, _ app: Application, _ serial: Int) -> ScreenEventJSON {
            ScreenEventJSON(e, app: app, configurationSerial: serial)
        }

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
}
