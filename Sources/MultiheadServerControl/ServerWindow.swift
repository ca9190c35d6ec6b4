import Multihead

/// A top-level window of any client as the display server has it now: what `multihead windows` lists and
/// a test asks of a browser's or a toolkit's window ("where did it go?").
public struct ServerWindow: Sendable, Equatable {
    /// What the window manager (or, without one, the window's own properties) says of the window.
    public enum State: String, Sendable, CaseIterable {
        case normal, maximized, fullscreen, minimized
    }

    /// The X window's ID (the client's window, not a window manager's frame); on the wayland kind, the
    /// compositor's number for the window, never reused while it runs.
    public var id: UInt
    /// `_NET_WM_NAME`, else `WM_NAME` (empty when it has none).
    public var title: String
    /// The class of `WM_CLASS` (a Wayland client's app id); empty when it has none.
    public var appID: String
    /// `_NET_WM_PID` (the Wayland client's process), nil when the window does not say.
    public var pid: Int32?
    /// Where the window's content is on the desktop, in the coordinates `screens` gives frames in.
    public var frame: Rect
    /// The monitor it is mostly on (the largest overlap; the first listed on a tie), nil when it is on none.
    public var screen: String?
    /// Normal, maximized, fullscreen or minimized, as the window manager (or the window's own
    /// `_NET_WM_STATE`) says.
    public var state: State

    /// A window's facts as read.
    public init(id: UInt, title: String, appID: String, pid: Int32?, frame: Rect, screen: String?, state: State) {
        (self.id, self.title, self.appID, self.pid, self.frame, self.screen, self.state) = (id, title, appID, pid, frame, screen, state)
    }

    /// The name of the screen a frame is mostly on among `screens` (name and frame, in their order): the
    /// largest overlap, the first on a tie; nil when it overlaps none.
    public static func screen(of frame: Rect, among screens: [(name: String, frame: Rect)]) -> String? {
        var best: (name: String, area: Double)?
        for s in screens {
            let w = min(frame.maxX, s.frame.maxX) - max(frame.minX, s.frame.minX)
            let h = min(frame.maxY, s.frame.maxY) - max(frame.minY, s.frame.minY)
            guard w > 0, h > 0 else { continue }
            if best == nil || w * h > (best?.area ?? 0) { best = (s.name, w * h) }
        }
        return best?.name
    }
}
