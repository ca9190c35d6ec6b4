import ArgumentParser
import Multihead
import MultiheadServerControl

/// `pixel X Y`: one pixel, at a point of a screen (`screen`) or of the desktop. The socket's alone (the
/// command line has `screenshot`).
package struct PixelRequest: ControlArguments {
    @Argument(help: "The pixel's x, from the screen's (or the desktop's) left edge.")
    package var x: Int
    @Argument(help: "The pixel's y, from its top edge.")
    package var y: Int
    @Option(help: "The screen the point is on (default: the desktop).")
    package var screen: String?

    package init() {}

    package static let fields: [ControlField] = [.positional("x", .wholeNumber), .positional("y", .wholeNumber),
                                                 .option("screen", .string)]

    package func validate() throws {
        guard x >= 0, y >= 0 else { throw ValidationError("pixel needs \"x\" and \"y\", whole numbers from 0") }
    }

    /// The pixel's value, 0xRRGGBB.
    @MainActor
    package func perform(_ control: ServerControl) throws -> UInt32 {
        if let screen { return try control.pixel(x: x, y: y, on: screen) }
        let bitmap = try control.screenshot(of: Rect(x: Double(x), y: Double(y), width: 1, height: 1))
        guard let v = bitmap.pixel(x: 0, y: 0) else {
            throw ServerControlError.invalidInput("pixel (\(x), \(y)) outside the framebuffer")
        }
        return v
    }
}
