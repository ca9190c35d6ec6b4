import ArgumentParser
import Multihead
import MultiheadServerControl
import MultiheadX11

/// `screenshot -o FILE.png`: a PNG of one screen, or of the whole desktop (the monitors' union).
package struct ScreenshotRequest: ControlArguments {
    @Option(help: "The screen to capture (default: the whole desktop).")
    package var screen: String?
    @Option(name: .shortAndLong, help: "The PNG file to write.")
    package var output: ControlPath

    package init() {}

    package static let fields: [ControlField] = [.option("screen", .string), .option("output", .path)]

    package func validate() throws {
        guard output.path.hasSuffix(".png") else { throw ValidationError("-o must name a .png file, not \"\(output.path.terminalEscaped)\"") }
    }

    /// Captures and writes the PNG; the picture's size.
    @MainActor
    package func perform(_ control: ServerControl) throws -> (width: Int, height: Int) {
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
        try bitmap.writePNG(to: output.path)
        return (bitmap.width, bitmap.height)
    }
}
