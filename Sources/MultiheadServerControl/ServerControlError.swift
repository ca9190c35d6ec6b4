/// A change to a server's monitors, or an input, that cannot be made as asked: a person's mistake.
public enum ServerControlError: Error, Equatable, CustomStringConvertible {
    /// A monitor name, frame or rate that the server will not take.
    case invalidMonitor(String)
    /// A point, key or button that cannot be sent.
    case invalidInput(String)
    /// A window ID that names no top-level window.
    case noSuchWindow(String)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .invalidMonitor(let why): "invalid monitor: \(why)"
        case .invalidInput(let why): "invalid input: \(why)"
        case .noSuchWindow(let why): why
        }
    }

    /// The reason alone, without the kind of fault.
    public var reason: String {
        switch self {
        case .invalidMonitor(let why), .invalidInput(let why), .noSuchWindow(let why): why
        }
    }

    /// A stable name for the fault, for programs: the case's name. (A name no monitor has is
    /// `ScreenError.noSuchScreen`, the model's one case for it.)
    public var code: String {
        switch self {
        case .invalidMonitor: "invalidMonitor"
        case .invalidInput: "invalidInput"
        case .noSuchWindow: "noSuchWindow"
        }
    }
}
