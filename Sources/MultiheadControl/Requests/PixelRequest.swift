import ArgumentParser
import Multihead

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
}
