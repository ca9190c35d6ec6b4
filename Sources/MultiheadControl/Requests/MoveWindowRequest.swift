import ArgumentParser
import Multihead

/// `move_window WINDOW SCREEN [--x X --y Y [--width W --height H]]`: a window put on a screen, at a point
/// of it (its top-left corner by default), out of fullscreen or maximized. The socket's alone.
package struct MoveWindowRequest: ControlArguments {
    @Argument(help: "The window's id, as `windows` lists it.")
    package var window: Int
    @Argument(help: "The screen to put it on.")
    package var screen: String
    @Option(help: "Its left edge, from the screen's.")
    package var x: Int?
    @Option(help: "Its top edge, from the screen's.")
    package var y: Int?
    @Option(help: "Its new width (default: as it is).")
    package var width: Int?
    @Option(help: "Its new height (default: as it is).")
    package var height: Int?

    package init() {}

    package static let fields: [ControlField] = [.positional("window", .wholeNumber), .positional("screen", .string),
                                                 .option("x", .wholeNumber), .option("y", .wholeNumber),
                                                 .option("width", .wholeNumber), .option("height", .wholeNumber)]

    package func validate() throws {
        guard (x == nil) == (y == nil), (width == nil) == (height == nil) else {
            throw ValidationError("move_window takes \"x\" with \"y\", and \"width\" with \"height\"")
        }
        guard width == nil || x != nil else { throw ValidationError("move_window: a \"width\" and \"height\" need \"x\" and \"y\"") }
        guard window >= 0, [x, y].allSatisfy({ ($0 ?? 0) >= 0 }), [width, height].allSatisfy({ ($0 ?? 1) >= 1 }) else {
            throw ValidationError("move_window: \"window\", \"x\" and \"y\" are whole numbers from 0, \"width\" and \"height\" from 1")
        }
    }

    /// The frame asked for in the screen's coordinates, nil when only the screen was.
    package var frame: (x: Int, y: Int, width: Int?, height: Int?)? { x.map { ($0, y ?? 0, width, height) } }
}

/// `fullscreen_window WINDOW SCREEN`: a window made to fill a screen. The socket's alone.
package struct FullscreenWindowRequest: ControlArguments {
    @Argument(help: "The window's id, as `windows` lists it.")
    package var window: Int
    @Argument(help: "The screen it is to fill.")
    package var screen: String

    package init() {}

    package static let fields: [ControlField] = [.positional("window", .wholeNumber), .positional("screen", .string)]

    package func validate() throws {
        guard window >= 0 else { throw ValidationError("fullscreen_window: \"window\" is a whole number from 0") }
    }
}
