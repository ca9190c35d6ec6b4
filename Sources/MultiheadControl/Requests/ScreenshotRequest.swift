import ArgumentParser
import Multihead

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
}
