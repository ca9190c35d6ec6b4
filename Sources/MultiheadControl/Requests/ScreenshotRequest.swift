import ArgumentParser
import Multihead

/// `screenshot -o FILE.png`: a PNG of one screen, or of the whole desktop (the monitors' union).
package struct ScreenshotRequest: ControlRequestValue {
    package var screen: String?
    package var output = ControlPath("")

    package init() {}

    package static var name: ControlRequest.Name { .screenshot }

    package static let declaration = RequestDeclaration<ScreenshotRequest>([
        .option(\.screen, "screen", help: "The screen to capture (default: the whole desktop)."),
        .required(\.output, "output", short: "o", help: "The PNG file to write."),
    ])

    package func validate() throws {
        guard output.path.hasSuffix(".png") else { throw ValidationError("-o must name a .png file, not \"\(output.path.terminalEscaped)\"") }
    }
}
