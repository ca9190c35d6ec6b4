import Foundation

extension WaylandServer {
    /// The environment variable that names the compositor binary to run, before any other place.
    public nonisolated static let compositorVariable = "MULTIHEAD_COMPOSITOR"
    /// Where a package installs the compositor.
    public nonisolated static let installedCompositor = "/usr/lib/multihead/multihead-compositor"

    /// The places the kit looks for `multihead-compositor`, in order: `MULTIHEAD_COMPOSITOR`, the installed
    /// binary, then the checkout's release build (`Scripts/build-compositor`), found beside the running
    /// executable's build folder (`.build/debug/x` → `.build/compositor/release`) and from this source file's
    /// place in the checkout.
    nonisolated static func compositorCandidates(environment: [String: String] = ProcessInfo.processInfo.environment,
                                                 sourceFile: String = #filePath) -> [String] {
        if let named = environment[compositorVariable], !named.isEmpty { return [named] }
        var found = [installedCompositor]
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        // .build/<triple>/debug/multihead or .build/debug/multihead: the .build folder is an ancestor.
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<3 {
            if folder.lastPathComponent == ".build" {
                found.append(folder.appendingPathComponent("compositor/release/multihead-compositor").path)
                break
            }
            folder = folder.deletingLastPathComponent()
        }
        // Sources/MultiheadTesting/this file → the checkout.
        let checkout = URL(fileURLWithPath: sourceFile).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        found.append(checkout.appendingPathComponent(".build/compositor/release/multihead-compositor").path)
        var seen = Set<String>()
        return found.filter { seen.insert($0).inserted }
    }

    /// The compositor binary to run: the first executable candidate (`MULTIHEAD_COMPOSITOR` is taken as it
    /// is, and refused when it is not executable), else `compositorNotFound` naming every place tried.
    public nonisolated static func compositorBinary() throws(WaylandServerError) -> String {
        let candidates = compositorCandidates()
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw .compositorNotFound(searched: candidates)
        }
        return path
    }
}
