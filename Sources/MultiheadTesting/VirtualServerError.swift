import Foundation
/// Why a private X server could not be started or changed.
public enum VirtualServerError: Error, Equatable, CustomStringConvertible {
    /// The server binary is not installed; `package` is the Debian package that provides it.
    case serverMissing(binary: String, package: String)
    /// The server started but did not report a display in time, or exited; `log` is what it printed.
    case didNotStart(binary: String, log: String)
    /// A file the kit needs could not be written.
    case cannotWrite(String)
    /// A monitor name that the server will not take.
    case invalidMonitor(String)
    /// No monitor or output with that name.
    case noSuchMonitor(String)
    /// A helper command (such as xrandr) failed; `output` is what it printed on stderr.
    case commandFailed(command: String, output: String)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .serverMissing(let b, let p): "\(b) is not installed: install the Debian package \(p) (apt-get install \(p))"
        case .didNotStart(let b, let log): "\(b) did not start: \(log.isEmpty ? "no output" : log)"
        case .cannotWrite(let p): "cannot write \(p)"
        case .invalidMonitor(let why): "invalid monitor: \(why)"
        case .noSuchMonitor(let n): "no monitor or output named \(n)"
        case .commandFailed(let c, let o): "\(c) failed: \(o.trimmingCharacters(in: .whitespacesAndNewlines))"
        }
    }
}
