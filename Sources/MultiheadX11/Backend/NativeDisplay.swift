import Multihead

/// A connection of its own to an application's X server, for a library that must be handed an Xlib
/// `Display` (EGL's X11 platform, for `GLView`): Xlib stays in this module, the library's requests never
/// mix with the presenter's frames, and its owner decides when it closes (after the library let go).
@MainActor
package final class NativeDisplay {
    private let connection: XConnection

    /// The display name it is connected to.
    package var name: String { connection.name }

    /// The `Display *` to hand over, valid while this object lives.
    package var pointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(connection.display) }

    /// Opens a connection to the X server of this display name. Throws what opening the display threw.
    /// `XOpenDisplay`.
    package init(display name: String) throws {
        connection = try XConnection(name: name)
    }
}
