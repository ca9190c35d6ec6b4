/// A change to a server's monitors, or an input, that cannot be made as asked: a person's mistake.
public enum ServerControlError: Error, Equatable, CustomStringConvertible {
    /// A monitor name, frame or rate that the server will not take.
    case invalidMonitor(String)
    /// No monitor or output with that name.
    case noSuchMonitor(String)
    /// A point, key or button that cannot be sent.
    case invalidInput(String)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .invalidMonitor(let why): "invalid monitor: \(why)"
        case .noSuchMonitor(let n): "no monitor or output named \(n)"
        case .invalidInput(let why): "invalid input: \(why)"
        }
    }
}
