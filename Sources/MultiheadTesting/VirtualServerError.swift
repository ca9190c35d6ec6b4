import Foundation
import Multihead
/// Why a private X server could not be started or changed.
public enum VirtualServerError: Error, Equatable, CustomStringConvertible {
    /// The server binary is not installed; `package` is the Debian package that provides it.
    case serverMissing(binary: String, package: String)
    /// The server started but did not report a display in time, or exited; `log` is what it printed.
    case didNotStart(binary: String, log: String)
    /// A file the kit needs could not be written (kept for source compatibility; the kit now throws
    /// `cannotCreate`, which says why).
    case cannotWrite(String)
    /// A file or folder the kit needs could not be created: the path and the system's reason (a full disk:
    /// "No space left on device").
    case cannotCreate(path: String, reason: String)
    /// The temporary directory (`TMPDIR`, else /tmp) does not exist: the kit creates nothing there.
    case temporaryDirectoryMissing(String)
    /// A monitor name that the server will not take.
    case invalidMonitor(String)
    /// No monitor or output with that name.
    case noSuchMonitor(String)
    /// A helper command (such as xrandr) failed; `output` is what it printed on stderr.
    case commandFailed(command: String, output: String)
    /// Multihead's Xorg driver cannot be built for the installed server: the server headers
    /// (`xserver-xorg-dev`) are of another release than the server (`xserver-xorg-core`).
    case xorgDriverMismatch(headers: String, server: String)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .serverMissing(let b, let p): "\(b) is not installed: install the Debian package \(p) (apt-get install \(p))"
        case .didNotStart(let b, let log): "\(b) did not start: \(log.isEmpty ? "no output" : log)"
        case .cannotWrite(let p): "cannot write \(p.terminalEscaped)"
        case .cannotCreate(let p, let r): "cannot create \(p.terminalEscaped): \(r)"
        case .temporaryDirectoryMissing(let p): "the temporary directory \(p.terminalEscaped) does not exist (TMPDIR); create it or point TMPDIR at one that does"
        case .invalidMonitor(let why): "invalid monitor: \(why)"
        case .noSuchMonitor(let n): "no monitor or output named \(n)"
        case .xorgDriverMismatch(let h, let v):
            "Multihead's Xorg driver must be built against the server that loads it: the headers (xserver-xorg-dev) are \(h), the server (xserver-xorg-core) is \(v); install the same version of both"
        case .commandFailed(let c, let o): "\(c) failed: \(o.trimmingCharacters(in: .whitespacesAndNewlines))"
        }
    }
}
