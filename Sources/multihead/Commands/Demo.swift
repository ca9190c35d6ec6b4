import ArgumentParser
import Foundation
import Multihead
import MultiheadControl
import MultiheadTesting
import MultiheadX11

extension MultiheadCommand {
    /// `multihead demo`: the seeds' external-display example, for real.
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "demo", abstract: "Run the demo: on your desktop until q or Escape; without DISPLAY (or --headless) a scripted tour on a private server.")

        @OptionGroup var options: DisplayOptions
        @Flag(help: "Start a private server and play the scripted tour even when DISPLAY is set.")
        var headless = false
        @Flag(help: "Use Xorg with Multihead's own driver for the tour (outputs with cables and EDIDs) instead of Xvfb.")
        var xorg = false
        @Flag(help: "Use Xorg with the dummy driver for the tour (real outputs and mode lists) instead of Xvfb.")
        var xorgDummy = false
        @Flag(help: "After the tour, keep its server and windows up (printing DISPLAY and XAUTHORITY) until SIGINT or SIGTERM.")
        var stay = false
        @Option(help: "Where the tour writes its PNGs and event log.")
        var outputDirectory = "multihead-demo"

        func validate() throws {
            if xorg && xorgDummy { throw ValidationError("--xorg and --xorg-dummy: pick one") }
        }

        @MainActor
        func run() async throws {
            let display = options.display ?? ProcessInfo.processInfo.environment["DISPLAY"]
            try await withExitStatus {
                if headless || display?.isEmpty ?? true {
                    let kind: VirtualServer.Kind = xorg ? .xorg : xorgDummy ? .xorgDummy : .xvfb
                    do { try await DemoTour(directory: outputDirectory, kind: kind, stay: stay).run() } catch let e as DemoError {
                        printError(e.description)
                        throw ExitCode(ExitStatus.software)
                    }
                    return
                }
                let app = try connectShared(options.display)
                let demo = DemoController(app: app)
                demo.onQuit = { app.stop() }
                // A line that cannot be written ends the demo with the reason (74), as any command's would.
                var outputError: OutputError?
                demo.onEvent = { e in
                    do { try StandardOutput.line("\(e.event) \(e.screen) \(e.frame) \(e.mode ?? "")") } catch let error as OutputError {
                        outputError = error
                        app.stop()
                    } catch {}
                }
                demo.launch()
                try StandardOutput.line("multihead demo on \(display ?? ""): \(app.screens.count) screens; q or Escape in the main window quits")
                try await app.run()
                app.terminate()
                if let outputError { throw outputError }
            }
        }
    }
}
