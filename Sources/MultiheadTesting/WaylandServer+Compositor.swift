#if canImport(Glibc)
import Glibc
#endif
import Foundation

extension WaylandServer {
    /// The environment variable that names the compositor binary to run, before any other place.
    public nonisolated static let compositorVariable = "MULTIHEAD_COMPOSITOR"
    /// Where the .deb installs the compositor.
    public nonisolated static let installedCompositor = "/usr/lib/multihead/multihead-compositor"

    /// The places the kit looks for `multihead-compositor`, in order: `MULTIHEAD_COMPOSITOR`; beside this
    /// executable (`<its folder>/../lib/multihead/`: the wheel's CLI and compositor); the .deb's; then the
    /// checkout's release build (`Scripts/build-compositor`) in the `.build` folder this executable was
    /// built in (`.build/debug/multihead` → `.build/compositor/release`).
    nonisolated static func compositorCandidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let named = environment[compositorVariable], !named.isEmpty { return [named] }
        var found: [String] = []
        if let bin = XorgInstallation.executableDirectory() {
            found.append(URL(fileURLWithPath: bin + "/../lib/multihead/multihead-compositor").standardizedFileURL.path)
        }
        found.append(installedCompositor)
        var folder = URL(fileURLWithPath: XorgInstallation.executableDirectory() ?? "/")
        for _ in 0..<3 {
            if folder.lastPathComponent == ".build" {
                found.append(folder.appendingPathComponent("compositor/release/multihead-compositor").path)
                break
            }
            folder = folder.deletingLastPathComponent()
        }
        var seen = Set<String>()
        return found.filter { seen.insert($0).inserted }
    }

    /// Xwayland as the compositor's wlroots 0.15 runs it: `WLR_XWAYLAND` when set, else the path its build
    /// names (/usr/bin/Xwayland, Debian's `xwayland` package).
    public nonisolated static var xwaylandPath: String {
        ProcessInfo.processInfo.environment["WLR_XWAYLAND"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/bin/Xwayland"
    }

    /// Why a compositor that answered `XWAYLAND=unavailable` has no Xwayland, in one line for people: the
    /// binary missing (wlroots then refuses to set Xwayland up) or no X display free for it.
    public nonisolated static var xwaylandUnavailableReason: String {
        if !FileManager.default.isExecutableFile(atPath: xwaylandPath) {
            return "no Xwayland: \(xwaylandPath.terminalEscaped) is missing or not executable (apt-get install xwayland); Wayland clients only"
        }
        return "no Xwayland: no X display was free among :0…:32, the only ones wlroots 0.15 takes; Wayland clients only"
    }

    /// The compositor binary to run: `MULTIHEAD_COMPOSITOR` as it is (refused when it is not executable),
    /// else the first candidate that is executable and trusted (it and its folder belong to root or to this
    /// user and are writable by no one else: a CLI copied to /tmp must not run what another user left in
    /// /tmp/lib); else `compositorNotFound` naming every place tried.
    public nonisolated static func compositorBinary() throws(WaylandServerError) -> String {
        let candidates = compositorCandidates()
        let named = ProcessInfo.processInfo.environment[compositorVariable].map { !$0.isEmpty } ?? false
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) && (named || trusted($0)) }) else {
            throw .compositorNotFound(searched: candidates)
        }
        return path
    }

    /// Whether a binary and its folder belong to root or to this user and no one else may write them. `stat`.
    nonisolated static func trusted(_ path: String) -> Bool {
        [path, (path as NSString).deletingLastPathComponent].allSatisfy { p in
            var st = stat()
            guard stat(p, &st) == 0, st.st_uid == 0 || st.st_uid == getuid() else { return false }
            return st.st_mode & (S_IWGRP | S_IWOTH) == 0
        }
    }
}
