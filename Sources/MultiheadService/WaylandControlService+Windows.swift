import Multihead
import MultiheadControl
import MultiheadTesting

extension WaylandControlService {
    /// The compositor's toplevels as `windows` lists windows: front first, in the layout's coordinates.
    func windows(_ compositor: WaylandServer) throws -> [WindowJSON] {
        let answer = try compositor.send(["toplevels"])
        guard case .array(let items) = try Self.json(answer, of: "toplevels") else {
            throw WaylandServerError.malformedAnswer(command: "toplevels", answer: answer)
        }
        return try items.map { item in
            guard let w = WindowJSON(compositorToplevel: item) else { throw WaylandServerError.malformedAnswer(command: "toplevels", answer: answer) }
            return w
        }
    }

    /// Runs a `move-window` or `fullscreen-window` command; the window it answers with.
    func place(_ words: [String], _ compositor: WaylandServer) throws -> WindowJSON {
        let answer = try compositor.send(words)
        guard let w = WindowJSON(compositorToplevel: try Self.json(answer, of: words[0])) else {
            throw WaylandServerError.malformedAnswer(command: words[0], answer: answer)
        }
        return w
    }
}

extension MoveWindowRequest {
    /// The compositor's words for it: `move-window ID OUTPUT [frame=X,Y[,W,H]]`.
    func compositorCommand() -> [String] {
        var words = ["move-window", String(window), screen]
        if let f = frame {
            words.append("frame=\(f.x),\(f.y)" + (f.width.map { w in ",\(w),\(f.height ?? w)" } ?? ""))
        }
        return words
    }
}

extension WindowJSON {
    /// A window from the compositor's `toplevels` entry (its `output` is the screen it is on); nil when
    /// the entry lacks a field.
    init?(compositorToplevel v: JSONValue) {
        guard let id = v["id"]?.int, case .string(let title)? = v["title"], case .string(let appId)? = v["appId"],
              let frame = v["frame"].flatMap(ScreenJSON.Frame.init(json:)), case .string(let state)? = v["state"] else { return nil }
        self.init(id: id, title: title, appId: appId, pid: v["pid"]?.int, frame: frame, screen: v["output"]?.string, state: state)
    }
}
