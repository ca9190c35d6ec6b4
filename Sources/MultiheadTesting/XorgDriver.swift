#if canImport(Glibc)
import Glibc
#endif
import Foundation
internal import CDriverSource

/// Multihead's Xorg video driver (`Driver/`): the one a package installed (the .deb's
/// `/usr/lib/xorg/modules/drivers/multihead_drv.so`, the wheel's beside its CLI) when it is of this
/// server's video ABI and of the source this binary carries; else built for the X server on this machine
/// the first time a `.xorg` server starts (a module must be built against the headers of the server that
/// loads it, `xserver-xorg-dev`).
@MainActor
package enum XorgDriver {
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
    /// `$MULTIHEAD_XORG_DRIVER_DIR` when set; else a prebuilt one (`prebuilt()`); else a folder of the
    /// user's cache (`$XDG_CACHE_HOME/multihead` or `~/.cache/multihead`) named by the server headers'
    /// version and the source's hash, built there once (by whichever process gets there first; a build
    /// lands by `rename`, whole); where no cache can be written, this process's own temporary folder. The
    /// fallback says why in one line on stderr.
    package static func moduleDirectory() async throws -> String {
        if let found { return found }
        if let finding { return try await finding.value }
        let task = Task { try await onOwnThread { try Self.locate() } }
        finding = task
        defer { finding = nil }
        let directory = try await task.value
        found = directory
        return directory
    }

    /// The hash of the driver's source this binary carries, as a prebuilt module records it.
    package nonisolated static var sourceHash: String {
        String(Self.hash(sourceFiles().map(\.bytes).reduce(Data(), +)), radix: 16)
    }

    /// The text before a module's source hash (`mh_source_hash` in `multihead_drv.c`).
    package nonisolated static let sourceHashMarker = "multihead-driver-source-hash="

    /// Where a prebuilt module may be, first found first: beside this executable
    /// (`<its folder>/../lib/multihead/drivers/multihead_drv.so`: the wheel's CLI and driver), then in
    /// Xorg's own module folders (the .deb's). Each is a `-modulepath` directory and its module.
    package nonisolated static func prebuiltCandidates() -> [(directory: String, module: String)] {
        var folders: [String] = []
        if let bin = XorgInstallation.executableDirectory() {
            folders.append(URL(fileURLWithPath: bin + "/../lib/multihead").standardizedFileURL.path)
        }
        folders += XorgInstallation.moduleDirectories
        return folders.map { ($0, $0 + "/drivers/multihead_drv.so") }
    }

    /// Why a prebuilt module must not be loaded, or nil: it, its folder and the folder above must belong to
    /// root or to this user and be writable by no one else (a CLI copied to /tmp would otherwise load
    /// whatever another user left in /tmp/lib). `stat`.
    nonisolated static func untrusted(_ candidate: (directory: String, module: String)) -> String? {
        let paths = [candidate.module, candidate.directory + "/drivers", candidate.directory]
        for path in paths {
            var st = stat()
            guard stat(path, &st) == 0 else { return "\(path) cannot be read" }
            guard st.st_uid == 0 || st.st_uid == getuid() else { return "\(path) belongs to another user (uid \(st.st_uid))" }
            guard st.st_mode & (S_IWGRP | S_IWOTH) == 0 || st.st_mode & S_ISVTX != 0 && path != candidate.module else {
                return "\(path) is writable by other users"
            }
        }
        return nil
    }

    /// What a prebuilt module is to this server and this binary.
    package enum Prebuilt: Equatable, Sendable {
        /// It loads: this server's video ABI, this binary's source.
        case usable(directory: String, module: String, abi: VideoABI)
        /// None there, or none that fits; the reason, for a person (nil: no module installed at all).
        case unusable(String?)
    }

    /// The first prebuilt module that fits: one whose video ABI (its module data) loads into the
    /// installed server's (`XorgInstallation.serverVideoABI()`) and that was built from the source this
    /// binary carries. Reads files only: compiles and starts nothing.
    package nonisolated static func prebuilt() -> Prebuilt {
        var reasons: [String] = []
        let server = XorgInstallation.serverVideoABI()
        for candidate in prebuiltCandidates() where FileManager.default.fileExists(atPath: candidate.module) {
            // The server loads it as code: only a module that no one else could have put or changed there.
            if let why = untrusted(candidate) {
                reasons.append(why)
                continue
            }
            guard let abi = XorgInstallation.moduleABI(atPath: candidate.module) else {
                reasons.append("\(candidate.module) is not an Xorg module")
                continue
            }
            guard let server else {
                reasons.append("\(candidate.module) (video ABI \(abi)): the server's video ABI is unknown (no modesetting_drv.so, no dpkg record)")
                continue
            }
            guard abi.loads(into: server.abi) else {
                reasons.append("\(candidate.module) is for video ABI \(abi), the server's is \(server.abi)")
                continue
            }
            let built = XorgInstallation.marker(sourceHashMarker, inFile: candidate.module)
            guard built == sourceHash else {
                reasons.append("\(candidate.module) is of another Multihead (driver source \(built ?? "unknown"), this one's \(sourceHash))")
                continue
            }
            return .usable(directory: candidate.directory, module: candidate.module, abi: abi)
        }
        return .unusable(reasons.isEmpty ? nil : reasons.joined(separator: "; "))
    }

    nonisolated private static func locate() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment[directoryVariable], !given.isEmpty {
            guard FileManager.default.fileExists(atPath: given + "/drivers/multihead_drv.so") else {
                throw VirtualServerError.notInstalled(binary: "\(given)/drivers/multihead_drv.so (\(directoryVariable))", package: "xserver-xorg-dev")
            }
            return given
        }
        let why: String
        switch prebuilt() {
        case .usable(let directory, _, _): return directory
        case .unusable(let reason): why = reason ?? "no prebuilt Multihead Xorg driver installed"
        }
        let headers = try Self.headersVersion()
        let name = "xorg-driver-\(headers)-\(sourceHash)"
        let caches = [environment["XDG_CACHE_HOME"].map { $0 + "/multihead" }, environment["HOME"].map { $0 + "/.cache/multihead" }]
            .compactMap { $0 }.filter { $0.hasPrefix("/") }
        for cache in caches {
            let directory = cache + "/" + name
            if FileManager.default.fileExists(atPath: directory + "/drivers/multihead_drv.so") {
                note("\(why): using the driver built in \(directory)")
                return directory
            }
            if (try? build(into: directory, headers: headers)) != nil {
                note("\(why): built Multihead's Xorg driver into \(directory)")
                return directory
            }
        }
        // No cache to write (a user without a home): this process's folder, held for as long as the process
        // lives (servers come and go; the module must stay) and removed with it.
        let directory = try ServerRegistry.holdDirectory() + "/" + name
        try build(into: directory, headers: headers)
        note("\(why): built Multihead's Xorg driver into \(directory) (no cache folder to keep it in)")
        return directory
    }

    /// The fallback's one line on stderr.
    nonisolated private static func note(_ text: String) {
        FileHandle.standardError.write(Data("multihead: \(text)\n".utf8))
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
        guard let server = try XorgInstallation.serverVersion() else { throw VirtualServerError.notInstalled(binary: "Xorg", package: "xserver-xorg-core") }
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
        let arguments = ["-shared", "-fPIC", "-O2", "-fvisibility=hidden", "-DMH_SOURCE_HASH=\"\(sourceHash)\""] + flags + ["-o", partial] + sources
        let (built, _, log) = try run(compiler, arguments)
        guard built == 0 else {
            // The compiler's first lines name the fault; the rest repeats it.
            let first = String(decoding: log, as: UTF8.self).split(separator: "\n").prefix(12).joined(separator: "\n")
            throw VirtualServerError.commandFailed(command: "building Multihead's Xorg driver (\(compiler) " + arguments.joined(separator: " ") + ")",
                                                   output: first)
        }
        guard rename(partial, target) == 0 else { throw VirtualServerError.cannotCreate(path: target, reason: String(cString: strerror(errno))) }
    }

    /// Whether two versions are one release (major and minor): the video driver ABI changes only between
    /// releases.
    package nonisolated static func sameRelease(_ a: String, _ b: String) -> Bool {
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
