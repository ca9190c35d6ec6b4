import Foundation
import Multihead
/// Why a private X server could not be started or changed.
public enum VirtualServerError: Error, Equatable, CustomStringConvertible {
    /// A program the kit runs (a server, `pkg-config`, a C compiler, `setpriv`) or a file it needs is not
    /// installed; `package` is the Debian package that provides it.
    case notInstalled(binary: String, package: String)
    /// The server started but did not report a display in time, or exited; `log` is what it printed.
    case didNotStart(binary: String, log: String)
    /// A file or folder the kit needs could not be created: the path and the system's reason (a full disk:
    /// "No space left on device").
    case cannotCreate(path: String, reason: String)
    /// The temporary directory (`TMPDIR`, else /tmp) does not exist: the kit creates nothing there.
    case temporaryDirectoryMissing(String)
    /// A server option the kit cannot start a server with (a depth other than 8, 15, 16 or 24).
    case invalidOption(String)
    /// A system call the kit needs failed (`pipe`, `posix_spawn`): its name and the system's reason.
    case systemCall(String, reason: String)
    /// A helper command (such as xrandr) failed; `output` is what it printed on stderr.
    case commandFailed(command: String, output: String)
    /// Multihead's Xorg driver cannot be built for the installed server: the server headers
    /// (`xserver-xorg-dev`) are of another release than the server (`xserver-xorg-core`).
    case xorgDriverMismatch(headers: String, server: String)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .notInstalled(let b, let p): "\(b) is not installed: install the Debian package \(p) (apt-get install \(p))"
        case .didNotStart(let b, let log): "\(b) did not start: \(log.isEmpty ? "no output" : log)"
        case .cannotCreate(let p, let r): "cannot create \(p.terminalEscaped): \(r)"
        case .temporaryDirectoryMissing(let p): "the temporary directory \(p.terminalEscaped) does not exist (TMPDIR); create it or point TMPDIR at one that does"
        case .invalidOption(let why): "invalid server option: \(why)"
        case .systemCall(let call, let reason): "\(call) failed: \(reason)"
        case .xorgDriverMismatch(let h, let v):
            "Multihead's Xorg driver must be built against the server that loads it: the headers (xserver-xorg-dev) are \(h), the server (xserver-xorg-core) is \(v); install the same version of both"
        case .commandFailed(let c, let o): "\(c) failed: \(o.trimmingCharacters(in: .whitespacesAndNewlines))"
        }
    }

    /// A stable name for the fault, for programs: the case's name.
    public var code: String {
        switch self {
        case .notInstalled: "notInstalled"
        case .didNotStart: "didNotStart"
        case .cannotCreate: "cannotCreate"
        case .temporaryDirectoryMissing: "temporaryDirectoryMissing"
        case .invalidOption: "invalidOption"
        case .systemCall: "systemCall"
        case .commandFailed: "commandFailed"
        case .xorgDriverMismatch: "xorgDriverMismatch"
        }
    }
}
