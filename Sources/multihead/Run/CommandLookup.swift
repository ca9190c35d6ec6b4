#if canImport(Glibc)
import Glibc
#endif

/// Finds a command as a shell does before it runs it: a name with a slash is a path; any other name is
/// looked for in each folder of `PATH` (an empty entry is the current folder).
enum CommandLookup: Equatable {
    /// An executable file.
    case found(String)
    /// A file that exists but cannot be executed (126, as shells exit).
    case notExecutable(String)
    /// Nothing of that name (127, as shells exit).
    case notFound

    /// The shell's status for a command that could not be started, and what it says.
    var failure: (status: Int32, message: String)? {
        switch self {
        case .found: nil
        case .notExecutable(let path): (126, "\(path.terminalEscaped): permission denied (not an executable file)")
        case .notFound: (127, "command not found")
        }
    }

    /// Looks `name` up in `path` (a `PATH` value). `access(X_OK)` and `stat`.
    static func find(_ name: String, path: String?) -> CommandLookup {
        if name.isEmpty { return .notFound }
        if name.contains("/") { return check(name) ?? .notFound }
        var firstNotExecutable: CommandLookup?
        for dir in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (dir.isEmpty ? "." : String(dir)) + "/" + name
            switch check(candidate) {
            case .found(let p)?: return .found(p)
            case let other? where firstNotExecutable == nil: firstNotExecutable = other
            default: continue
            }
        }
        return firstNotExecutable ?? .notFound
    }

    /// A path's kind: executable, not executable (a directory, or no execute permission), or nil when
    /// nothing is there.
    private static func check(_ path: String) -> CommandLookup? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        let isRegular = st.st_mode & S_IFMT == S_IFREG
        return isRegular && access(path, X_OK) == 0 ? .found(path) : .notExecutable(path)
    }
}
