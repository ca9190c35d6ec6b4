internal import CXlib
import Multihead

/// What reading the screens needs of a connection: its XCB side and root window (RandR is read over
/// XCB, pipelined), a bound on every wait, and whether it still stands. The application's Xlib
/// connection (`XConnection`) provides it, and so does a bare XCB one (`XCBConnection`), which a one-shot
/// `X11Backend.snapshot` opens without Xlib's start-up.
@MainActor
package protocol ScreenSource: AnyObject {
    /// The display name as the user gave it (or `DISPLAY`).
    var name: String { get }
    /// The connection's XCB side (an `xcb_connection_t`), nil when there is none.
    var xcbConnection: OpaquePointer? { get }
    /// The root window of the default screen.
    var root: UInt { get }
    /// Runs `body` bounded by the connection's timeout.
    func bounded<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T
    /// Throws once the connection is gone.
    func checkAlive() throws(X11Error)
    /// The root window's size now.
    func rootSize() -> Size
    /// The RandR reads made over the connection (round trips and requests): what tests count.
    var randrTally: RandRBatch.Tally { get set }
    /// Without RandR 1.5: one screen per X screen, named SCREEN-n.
    func xScreens() -> [ScreenDescription]
}

extension XConnection: ScreenSource {
    package var xcbConnection: OpaquePointer? { XGetXCBConnection(display) }

    package func xScreens() -> [ScreenDescription] {
        (0..<mh_screen_count(display)).map { s in
            ScreenDescription.xScreen(s, width: mh_display_width(display, s), height: mh_display_height(display, s),
                                      widthMM: mh_display_width_mm(display, s), heightMM: mh_display_height_mm(display, s),
                                      isDefault: s == mh_default_screen(display))
        }
    }
}

extension ScreenDescription {
    /// An X screen as a screen, for servers without RandR 1.5's monitors.
    static func xScreen(_ s: Int32, width: Int32, height: Int32, widthMM: Int32, heightMM: Int32, isDefault: Bool) -> ScreenDescription {
        ScreenDescription(
            name: "SCREEN-\(s)", frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)),
            physicalSize: Size(width: Double(widthMM), height: Double(heightMM)), isPrimary: isDefault)
    }
}
