import ArgumentParser
import Foundation
import Multihead
import MultiheadControl
import MultiheadService
import MultiheadServerControl

extension MultiheadCommand {
    /// `multihead screenshot`: a PNG of one screen, or of the whole desktop. Its words are
    /// `ScreenshotRequest`'s, read by its declaration (the socket's `screenshot` fields).
    struct Screenshot: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "screenshot", abstract: "Write a PNG of a screen (or of the whole desktop) as the X server shows it.",
            usage: ScreenshotRequest.declaration.usage("multihead screenshot", adding: "[--display <display>]"),
            discussion: ScreenshotRequest.declaration.help)

        @OptionGroup var options: DisplayOptions
        @Argument(parsing: .allUnrecognized, help: .hidden) var words: [String] = []

        @MainActor
        func run() async throws {
            try await withExitStatus {
                let request = try ScreenshotRequest.declaration.parse(words, command: "screenshot")
                let size: (width: Int, height: Int)
                if let socket = ControlClient.socket(options.display) {
                    let answer = try ControlClient.send(request, to: socket)
                    let shot = ScreenshotAnswer(answer: answer)
                    size = (shot?.width ?? 0, shot?.height ?? 0)
                } else {
                    let control = try ServerControl(display: options.display)
                    defer { control.close() }
                    size = try request.perform(control)
                }
                try StandardOutput.line("\(request.output.path.terminalEscaped): \(size.width)x\(size.height)")
            }
        }
    }
}
