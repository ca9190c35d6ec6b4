import ArgumentParser

/// `move_window WINDOW SCREEN [--x X --y Y [--width W --height H]]`: a window put on a screen, at a point
/// of it (its top-left corner by default), out of fullscreen or maximized. The socket's alone.
package struct MoveWindowRequest: ControlRequestValue {
    package var window = 0
    package var screen = ""
    package var x: Int?
    package var y: Int?
    package var width: Int?
    package var height: Int?

    package init() {}

    package static var name: ControlRequest.Name { .move_window }

    package static let declaration = RequestDeclaration<MoveWindowRequest>([
        .positional(\.window, "window", help: "The window's id, as `windows` lists it."),
        .positional(\.screen, "screen", help: "The screen to put it on."),
        .option(\.x, "x", help: "Its left edge, from the screen's."),
        .option(\.y, "y", help: "Its top edge, from the screen's."),
        .option(\.width, "width", help: "Its new width (default: as it is)."),
        .option(\.height, "height", help: "Its new height (default: as it is)."),
    ])

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
package struct FullscreenWindowRequest: ControlRequestValue {
    package var window = 0
    package var screen = ""

    package init() {}

    package static var name: ControlRequest.Name { .fullscreen_window }

    package static let declaration = RequestDeclaration<FullscreenWindowRequest>([
        .positional(\.window, "window", help: "The window's id, as `windows` lists it."),
        .positional(\.screen, "screen", help: "The screen it is to fill."),
    ])

    package func validate() throws {
        guard window >= 0 else { throw ValidationError("fullscreen_window: \"window\" is a whole number from 0") }
    }
}
