import ArgumentParser

/// `pixel X Y`: one pixel, at a point of a screen (`screen`) or of the desktop. The socket's alone (the
/// command line has `screenshot`).
package struct PixelRequest: ControlRequestValue {
    package var x = 0
    package var y = 0
    package var screen: String?

    package init() {}

    package static var name: ControlRequest.Name { .pixel }

    package static let declaration = RequestDeclaration<PixelRequest>([
        .positional(\.x, "x", help: "The pixel's x, from the screen's (or the desktop's) left edge."),
        .positional(\.y, "y", help: "The pixel's y, from its top edge."),
        .option(\.screen, "screen", help: "The screen the point is on (default: the desktop)."),
    ])

    package func validate() throws {
        guard x >= 0, y >= 0 else { throw ValidationError("pixel needs \"x\" and \"y\", whole numbers from 0") }
    }
}
