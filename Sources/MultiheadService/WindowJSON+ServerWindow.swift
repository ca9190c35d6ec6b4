import Multihead
import MultiheadControl
import MultiheadServerControl

extension WindowJSON {
    /// A window as an X server's `ServerControl` reads it.
    package init(_ w: ServerWindow) {
        self.init(id: Int(w.id), title: w.title, appId: w.appID, pid: w.pid.map(Int.init), frame: ScreenJSON.frame(w.frame),
                  screen: w.screen, state: w.state.rawValue)
    }
}
