#if canImport(Glibc)
import Glibc
#endif
import Foundation
internal import CDriverSource

/// Multihead's Xorg video driver (`Driver/`), built for the X server on this machine the first time a
/// `.xorg` server starts: a module must be built against the headers of the server that loads it
/// (`xserver-xorg-dev`), so none is shipped.
@MainActor
enum XorgDriver {
    /// The driver's files (`Driver/`), embedded in this binary when it was built: a copied or installed
    /// CLI, or a package that depends on Multihead, builds the driver without the checkout. Made on each
    /// call (twice a build), not kept.
    nonisolated static func sourceFiles() -> [(name: String, bytes: Data)] {
        var count = 0
        guard let files = mh_driver_files(&count) else { return [] }
        return UnsafeBufferPointer(start: files, count: count).map { file in
            (String(cString: file.name), Data(bytes: file.bytes, count: file.length))
        }
    }

    /// Set to a directory holding `drivers/multihead_drv.so` to use that module as it is.
    nonisolated static let directoryVariable = "MULTIHEAD_XORG_DRIVER_DIR"

    private static var found: String?
    private static var finding: Task<String, any Error>?

    /// A directory for Xorg's `-modulepath` whose `drivers/multihead_drv.so` is built for this server:
    /// `$MULTIHEAD_XORG_DRIVER_DIR` when set; else a folder of the user's cache (`$XDG_CACHE_HOME/multihead`
    /// or `~/.cache/multihead`) named by the server headers' version and the source's hash, built there
    /// once (by whichever process gets there first; a build lands by `rename`, whole); where no cache can
    /// be written, this process's own temporary folder.
    static func moduleDirectory() async throws -> String {
        if let found { return found }
        if let finding { return try await finding.value }
        let task = Task { try await onOwnThread { try Self.locate() } }
        finding = task
        defer { finding = nil }
        let directory = try await task.value
        found = directory
        return directory
    }

    nonisolated private static func locate() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment[directoryVariable], !given.isEmpty {
            guard FileManager.default.fileExists(atPath: given + "/drivers/multihead_drv.so") else {
                throw VirtualServerError.notInstalled(binary: "\(given)/drivers/multihead_drv.so (\(directoryVariable))", package: "xserver-xorg-dev")
            }
            return given
        }
        let headers = try Self.headersVersion()
        let name = "xorg-driver-\(headers)-\(String(Self.hash(sourceFiles().map(\.bytes).reduce(Data(), +)), radix: 16))"
        let caches = [environment["XDG_CACHE_HOME"].map { $0 + "/multihead" }, environment["HOME"].map { $0 + "/.cache/multihead" }]
            .compactMap { $0 }.filter { $0.hasPrefix("/") }
        for cache in caches {
            let directory = cache + "/" + name
            if FileManager.default.fileExists(atPath: directory + "/drivers/multihead_drv.so") { return directory }
            if (try? build(into: directory, headers: headers)) != nil { return directory }
        }
        // No cache to write (a user without a home): this process's folder, held for as long as the process
        // lives (servers come and go; the module must stay) and removed with it.
        let directory = try ServerRegistry.holdDirectory() + "/" + name
        try build(into: directory, headers: headers)
        return directory
    }

    /// `pkg-config --modversion xorg-server`: the version of the headers a module is built against.
    nonisolated private static func headersVersion() throws -> String {
        guard let pkgConfig = XServerLauncher.which("pkg-config") else {
            throw VirtualServerError.notInstalled(binary: "pkg-config", package: "pkg-config")
        }
        let (status, out, _) = try run(pkgConfig, ["--modversion", "xorg-server"])
        let version = String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard status == 0, !version.isEmpty else {
            throw VirtualServerError.notInstalled(binary: "the X server's headers (xorg-server.pc)", package: "xserver-xorg-dev")
        }
        return version
    }

    /// Compiles the driver into `directory/drivers/multihead_drv.so`, after checking that the headers
    /// are the installed server's own (a module for another version is refused when Xorg loads it).
    nonisolated private static func build(into directory: String, headers: String) throws {
        let server = try serverVersion()
        guard Self.sameRelease(headers, server) else { throw VirtualServerError.xorgDriverMismatch(headers: headers, server: server) }
        guard let compiler = XServerLauncher.which("cc") ?? XServerLauncher.which("gcc") else {
            throw VirtualServerError.notInstalled(binary: "a C compiler (cc)", package: "gcc")
        }
        let pkgConfig = XServerLauncher.which("pkg-config") ?? "pkg-config"
        let (status, out, err) = try run(pkgConfig, ["--cflags", "xorg-server"])
        guard status == 0 else { throw VirtualServerError.commandFailed(command: "pkg-config --cflags xorg-server", output: String(decoding: err, as: UTF8.self)) }
        let flags = String(decoding: out, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
        try FileManager.default.createDirectory(atPath: directory + "/drivers", withIntermediateDirectories: true)
        let target = directory + "/drivers/multihead_drv.so"
        let partial = target + ".\(getpid()).tmp"
        defer { unlink(partial) }
        // The embedded source, written out for the compiler beside the module it makes (this process's own
        // folder: two builders never share one).
        let sourceFolder = directory + "/source.\(getpid())"
        let files = sourceFiles()
        defer { try? FileManager.default.removeItem(atPath: sourceFolder) }
        do {
            try FileManager.default.createDirectory(atPath: sourceFolder, withIntermediateDirectories: true)
            for file in files { try file.bytes.write(to: URL(fileURLWithPath: sourceFolder + "/" + file.name)) }
        } catch {
            throw VirtualServerError.cannotCreate(path: sourceFolder, reason: (error as NSError).localizedDescription)
        }
        let sources = files.map(\.name).filter { $0.hasSuffix(".c") }.map { sourceFolder + "/" + $0 }
        let arguments = ["-shared", "-fPIC", "-O2", "-fvisibility=hidden"] + flags + ["-o", partial] + sources
        let (built, _, log) = try run(compiler, arguments)
        guard built == 0 else {
            // The compiler's first lines name the fault; the rest repeats it.
            let first = String(decoding: log, as: UTF8.self).split(separator: "\n").prefix(12).joined(separator: "\n")
            throw VirtualServerError.commandFailed(command: "building Multihead's Xorg driver (\(compiler) " + arguments.joined(separator: " ") + ")",
                                                   output: first)
        }
        guard rename(partial, target) == 0 else { throw VirtualServerError.cannotCreate(path: target, reason: String(cString: strerror(errno))) }
    }

    /// The installed Xorg's version, as `Xorg -version` prints it ("X.Org X Server 1.21.1.7": 21.1.7).
    nonisolated private static func serverVersion() throws -> String {
        let binary = FileManager.default.isExecutableFile(atPath: "/usr/lib/xorg/Xorg") ? "/usr/lib/xorg/Xorg" : XServerLauncher.which("Xorg")
        guard let binary else { throw VirtualServerError.notInstalled(binary: "Xorg", package: "xserver-xorg-core") }
        let (_, out, err) = try run(binary, ["-version"])
        let text = String(decoding: err + out, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.contains("X Server") }),
              let version = line.split(separator: " ").last else { return "unknown" }
        return version.hasPrefix("1.") && version.split(separator: ".").count == 4 ? String(version.dropFirst(2)) : String(version)
    }

    /// Whether two versions are one release (major and minor): the video driver ABI changes only between
    /// releases.
    nonisolated static func sameRelease(_ a: String, _ b: String) -> Bool {
        a.split(separator: ".").prefix(2) == b.split(separator: ".").prefix(2)
    }

    /// Xorg's complaint about a module of another ABI, from its log ("module ABI major version (24)
    /// doesn't match the server's version (25)"), if it made one.
    nonisolated static func abiComplaint(inLog path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.contains("ABI") && $0.contains("doesn't match") }
            .map { "Multihead's Xorg driver was built for another server: \($0) (rebuild it: remove \(directoryVariable) or the cache folder)" }
    }

    /// FNV-1a of the source: a changed driver is built again.
    nonisolated static func hash(_ data: Data) -> UInt64 {
        data.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    nonisolated private static func run(_ path: String, _ arguments: [String]) throws -> (Int32, Data, Data) {
        try ChildProcess.spawn(path, arguments).collect()
    }
}
