import ArgumentParser
import Multihead
import MultiheadX11

extension MultiheadCommand {
    /// `multihead screenshot`: a PNG of one screen, or of the whole desktop.
    struct Screenshot: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "screenshot", abstract: "Write a PNG of a screen (or of the whole desktop) as the X server shows it.")

        @OptionGroup var options: DisplayOptions
        @Option(help: "The screen to capture (default: the whole desktop).")
        var screen: String?
        @Option(name: .shortAndLong, help: "The PNG file to write.")
        var output: String

        func validate() throws {
            guard output.hasSuffix(".png") else { throw ValidationError("-o must name a .png file, not \"\(output.terminalEscaped)\"") }
        }

        @MainActor
        func run() async throws {
            try await withExitStatus {
                let app = try connectShared(options.display)
                let backend = app.backend
                let captured: Bitmap?
                if let screen {
                    guard let s = app.screen(named: screen) else {
                        throw UsageError(message: "no screen named \(screen.terminalEscaped); the screens are \(app.screens.map(\.name.terminalEscaped).joined(separator: ", "))")
                    }
                    captured = try backend.pixels(in: s.frame)
                } else {
                    // The monitors' union, not the whole framebuffer (Xvfb's is larger than its monitors).
                    let union = app.screens.dropFirst().reduce(app.mainScreen.frame) { $0.union($1.frame) }
                    captured = try backend.pixels(in: union)
                }
                guard let bitmap = captured else { throw UsageError(message: "this display cannot be read back") }
                guard bitmap.width > 0, bitmap.height > 0 else {
                    throw UsageError(message: "\(screen.map { "screen \($0.terminalEscaped)" } ?? "the desktop") lies outside the framebuffer; nothing to capture")
                }
                try bitmap.writePNG(to: output)
                try StandardOutput.line("\(output.terminalEscaped): \(bitmap.width)x\(bitmap.height)")
            }
        }
    }
}
