import ArgumentParser
import Foundation
import Multihead
import MultiheadServerControl
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
                let size: (width: Int, height: Int)
                if let socket = ControlClient.socket(options.display) {
                    // The server writes the file: from its folder, the path must be whole.
                    let path = output.hasPrefix("/") ? output : FileManager.default.currentDirectoryPath + "/" + output
                    let answer = try ControlClient.send(.screenshot, [("output", .string(path)),
                                                                     ("screen", screen.map(JSONText.string) ?? .null)], to: socket)
                    size = (answer["width"]?.int ?? 0, answer["height"]?.int ?? 0)
                } else {
                    let control = try ServerControl(display: options.display)
                    defer { control.close() }
                    size = try perform(control)
                }
                try StandardOutput.line("\(output.terminalEscaped): \(size.width)x\(size.height)")
            }
        }

        /// Captures and writes the PNG: the command's work, for the command line and the control socket
        /// alike; the picture's size.
        @MainActor
        func perform(_ control: ServerControl) throws -> (width: Int, height: Int) {
            let screens = ScreenDiff.ordered(try control.screens())
            let rect: Rect
            if let screen {
                guard let s = screens.first(where: { $0.name == screen }) else {
                    throw UsageError(message: "no screen named \(screen.terminalEscaped); the screens are \(screens.map(\.name.terminalEscaped).joined(separator: ", "))")
                }
                rect = s.frame
            } else {
                // The monitors' union, not the whole framebuffer (Xvfb's is larger than its monitors).
                guard let first = screens.first else { throw UsageError(message: "the server shows no screen; nothing to capture") }
                rect = screens.dropFirst().reduce(first.frame) { $0.union($1.frame) }
            }
            let bitmap = try control.screenshot(of: rect)
            guard bitmap.width > 0, bitmap.height > 0 else {
                throw UsageError(message: "\(screen.map { "screen \($0.terminalEscaped)" } ?? "the desktop") lies outside the framebuffer; nothing to capture")
            }
            try bitmap.writePNG(to: output)
            return (bitmap.width, bitmap.height)
        }
    }
}
