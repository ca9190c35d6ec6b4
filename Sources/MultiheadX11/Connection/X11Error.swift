/// What went wrong talking to an X server, with what a person needs to act on it.
public enum X11Error: Error, Equatable, CustomStringConvertible {
    /// No server answered at that display name (or `DISPLAY` was not set).
    case cannotOpenDisplay(String)
    /// The connection to the server was lost (the server died or closed it).
    case connectionLost(String)
    /// The server stopped answering (no reply within the connection's timeout); the connection is lost.
    case notResponding(String)
    /// The server lacks an extension we need, or an old version of it.
    case missingExtension(display: String, name: String, needed: String)
    /// The server answered a request with an X protocol error.
    /// `code` is the X error code (`BadMatch` is 8, `BadValue` 2, `BadAccess` 10…): what code classifies
    /// by; `error` is its text, for people.
    case protocolError(display: String, request: String, error: String, code: UInt8)
    /// A request the server refused without an X error (a status code).
    case refused(display: String, request: String, status: Int)
    /// The server's screen has no visual Multihead can draw on (24-bit TrueColor, or 16-bit 5-6-5
    /// TrueColor): depth 8 PseudoColor, say. Reported at the first window, never drawn black.
    case unsupportedVisual(display: String, depth: Int, visualClass: String)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .cannotOpenDisplay(let d):
            d.isEmpty ? "cannot open display: DISPLAY is not set" : "cannot open display \"\(d)\""
        case .connectionLost(let d): "the X server at \(d) went away"
        case .notResponding(let d): "X server at \(d) is not responding"
        case .missingExtension(let d, let n, let v): "the X server at \(d) lacks \(n) \(v)"
        case .protocolError(let d, let r, let e, _): "X server \(d) refused \(r): \(e)"
        case .refused(let d, let r, let s): "X server \(d) refused \(r) (status \(s))"
        case .unsupportedVisual(let d, let depth, let c):
            "the X server at \(d) shows depth \(depth) \(c), which Multihead cannot draw on: it needs 24-bit or 16-bit (5-6-5) TrueColor (Xvfb -screen 0 1920x1080x24)"
        }
    }

    /// A stable name for the fault, for programs (the control socket, JSON): the case's name, but
    /// `requestRefused` for `refused` (a screen's own refusal, a person's mistake, is `ScreenError`'s `refused`).
    public var code: String {
        switch self {
        case .cannotOpenDisplay: "cannotOpenDisplay"
        case .connectionLost: "connectionLost"
        case .notResponding: "notResponding"
        case .missingExtension: "missingExtension"
        case .protocolError: "protocolError"
        case .refused: "requestRefused"
        case .unsupportedVisual: "unsupportedVisual"
        }
    }
}
