import ArgumentParser
import Foundation
import Multihead
import MultiheadControl
import MultiheadService
import MultiheadServerControl

extension MultiheadCommand {
    /// `multihead screenshot`: a PNG of one screen, or of the whole desktop. Its arguments are
    /// `ScreenshotRequest`'s, the socket's `screenshot` fields.
    struct Screenshot: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "screenshot", abstract: "Write a PNG of a screen (or of the whole desktop) as the X server shows it.")

        @OptionGroup var options: DisplayOptions
        @OptionGroup var request: ScreenshotRequest

        @MainActor
        func run() async throws {
            try await withExitStatus {
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
