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
    @Option(help: "Exit after this many events.")
    var count: Int?
    @Option(help: "Exit after this many seconds.")
    var timeout: Double?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1, not \(count)") }
        if let timeout, !(timeout.isFinite && timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    @MainActor
    func run() async throws {
        try await withExitStatus {
            let app = try connectShared(options.display)
            var seen = 0
            let json = self.json, count = self.count
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
            if let timeout {
                DispatchQueue.main.asyncAfter(deadline: .now() + timeout) { MainActor.assumeIsolated { app.stop() } }
            }
            try await app.run()
        }
    }

    @MainActor
    static func name(_ e: ScreenEvent) -> String {
        switch e {
        case .connect: "connect"
        case .disconnect: "disconnect"
        case .modeChange: "modeChange"
        case .brightnessChange: "brightnessChange"
        }
    }

    @MainActor
    static func json(_ e: ScreenEvent, _ app: Application) -> ScreenEventJSON {
        ScreenEventJSON(event: name(e), screen: ScreenJSON(e.screen, isMain: e.screen === app.mainScreen))
    }

    @MainActor
    static func text(_ e: ScreenEvent) -> String {
        let s = e.screen
        let mode = s.currentMode.map { "\($0.size)@" + Screens.hz($0.refreshRate) } ?? "-"
        return "\(name(e)) \(s.name) \(s.frame) \(mode)"
    }
}
