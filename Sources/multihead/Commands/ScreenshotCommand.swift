import ArgumentParser
import Multihead
import MultiheadX11

/// `multihead screenshot`: a PNG of one screen, or of the whole desktop.
struct ScreenshotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenshot", abstract: "Write a PNG of a screen (or of the whole desktop) as the X server shows it.")

    @OptionGroup var options: DisplayOptions
    @Option(help: "The screen to capture (default: the whole desktop).")
    var screen: String?
    @Option(name: .shortAndLong, help: "The PNG file to write.")
    var output: String

    func validate() throws {
        guard output.hasSuffix(".png") else { throw ValidationError("-o must name a .png file, not \"\(output)\"") }
    }

    @MainActor
    func run() async throws {
        try await withExitStatus {
            let app = try connectShared(options.display)
            guard let backend = app.backend as? X11Backend else { throw UsageError(message: "not an X11 display") }
            let bitmap: Bitmap
            if let screen {
                guard let s = app.screen(named: screen) else {
                    throw UsageError(message: "no screen named \(screen); the screens are \(app.screens.map(\.name).joined(separator: ", "))")
                }
                bitmap = try backend.screenshot(of: s)
            } else {
                bitmap = try backend.desktopScreenshot()
            }
            do { try bitmap.writePNG(to: output) } catch {
                throw UsageError(message: "\(error)")
            }
            print("\(output): \(bitmap.width)x\(bitmap.height)")
        }
    }
}
