import Multihead

/// A top-level window as the command line contract prints it in JSON (`windows`, `move_window`,
/// `fullscreen_window`): the one statement of its fields, on every kind.
package struct WindowJSON: Equatable {
    /// The X window's ID, or the compositor's number for the window.
    package var id: Int
    package var title: String
    /// X: the class of `WM_CLASS`; Wayland: the app id.
    package var appId: String
    package var pid: Int?
    /// In the coordinates of the screens' frames.
    package var frame: ScreenJSON.Frame
    /// The screen it is mostly on, or null.
    package var screen: String?
    /// `normal`, `maximized`, `fullscreen` or `minimized`.
    package var state: String

    package init(id: Int, title: String, appId: String, pid: Int?, frame: ScreenJSON.Frame, screen: String?, state: String) {
        (self.id, self.title, self.appId, self.pid, self.frame, self.screen, self.state) = (id, title, appId, pid, frame, screen, state)
    }

    /// A window read back from its JSON (the control socket's answer, the compositor's `toplevels` entry
    /// once translated); nil when it is not one.
    package init?(json v: JSONValue) {
        guard let id = v["id"]?.int, case .string(let title)? = v["title"], case .string(let appId)? = v["appId"],
              let frame = v["frame"].flatMap(ScreenJSON.Frame.init(json:)), case .string(let state)? = v["state"] else { return nil }
        (self.id, self.title, self.appId, self.frame, self.state) = (id, title, appId, frame, state)
        pid = v["pid"]?.int
        screen = v["screen"]?.string
    }
}

extension WindowJSON: JSONLine {
    package var json: JSONText {
        .object([
            "id": .int(id), "title": .string(title), "appId": .string(appId), "pid": pid.map(JSONText.int) ?? .null,
            "frame": frame.json, "screen": screen.map(JSONText.string) ?? .null, "state": .string(state),
        ])
    }
}

/// `windows`: every top-level window, front first.
package struct WindowsAnswer: ControlAnswerBody {
    package var windows: [WindowJSON]

    package init(windows: [WindowJSON]) { self.windows = windows }

    /// Read from an answer's line; nil when it is not one.
    package init?(answer v: JSONValue) {
        guard case .array(let items)? = v["windows"] else { return nil }
        self.init(windows: items.compactMap(WindowJSON.init(json:)))
    }

    package var members: [(key: String, value: JSONText)] { [("windows", windows.json)] }
}

/// `move_window` and `fullscreen_window`: the window as it is once placed.
package struct WindowAnswer: ControlAnswerBody {
    package var window: WindowJSON

    package init(window: WindowJSON) { self.window = window }

    package var members: [(key: String, value: JSONText)] { [("window", window.json)] }
}
