#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A video driver ABI version (`X.Org Video Driver: 25.2` in Xorg's log). Xorg loads a module whose major
/// equals its own and whose minor is not newer.
package struct VideoABI: Equatable, Sendable, CustomStringConvertible {
    package var major: Int
    package var minor: Int

    package init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// Whether a module of this ABI loads into a server of `server`'s (Xorg's loader's rule).
    package func loads(into server: VideoABI) -> Bool { major == server.major && minor <= server.minor }

    /// "25.2"; "25" when only the major is known (the minor `Int.max`).
    package var description: String { minor == Int.max ? "\(major)" : "\(major).\(minor)" }
}

/// What this machine has for the Xorg kinds, read without starting a server or running a compiler: the
/// server binary, its version and video driver ABI, and the ABI a driver module was built for.
package enum XorgInstallation {
    /// Names the Xorg binary to run, instead of `/usr/lib/xorg/Xorg` (else `Xorg` on PATH): a server
    /// built elsewhere; a path that does not exist makes the Xorg kinds "not installed".
    package static let binaryVariable = "MULTIHEAD_XORG"

    /// Xorg's module folders, where Debian (and Fedora) put the server's own modules.
    package static let moduleDirectories = ["/usr/lib/xorg/modules", "/usr/lib64/xorg/modules"]

    /// The Xorg binary the kit runs: `$MULTIHEAD_XORG` when set; else the server binary itself
    /// (Debian's /usr/bin/Xorg is a wrapper script that runs a set-user-ID helper, which would clear the
    /// parent-death signal); else `Xorg` on PATH.
    package static func serverBinary() -> String? {
        if let given = ProcessInfo.processInfo.environment[binaryVariable], !given.isEmpty {
            return FileManager.default.isExecutableFile(atPath: given) ? given : nil
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/lib/xorg/Xorg") { return "/usr/lib/xorg/Xorg" }
        return XServerLauncher.which("Xorg")
    }

    /// The installed Xorg's version, as `Xorg -version` prints it ("X.Org X Server 1.21.1.7": 21.1.7);
    /// nil without a server.
    package static func serverVersion() throws -> String? {
        guard let binary = serverBinary() else { return nil }
        let (_, out, err) = try ChildProcess.spawn(binary, ["-version"]).collect()
        let text = String(decoding: err + out, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.contains("X Server") }),
              let version = line.split(separator: " ").last else { return "unknown" }
        return version.hasPrefix("1.") && version.split(separator: ".").count == 4 ? String(version.dropFirst(2)) : String(version)
    }

    /// The video driver ABI of the installed server, and where it was read: the module data of the video
    /// drivers installed with the server itself (`modesetting_drv.so` is in `xserver-xorg-core`, built
    /// with the server), else the `xorg-video-abi-N` that dpkg's database says `xserver-xorg-core`
    /// provides (the major only). Nil when neither says.
    package static func serverVideoABI() -> (abi: VideoABI, source: String)? {
        for directory in moduleDirectories {
            let path = directory + "/drivers/modesetting_drv.so"
            if let abi = moduleABI(atPath: path) { return (abi, path) }
        }
        if let major = dpkgProvidedVideoABI() {
            return (VideoABI(major: major, minor: Int.max), "xserver-xorg-core's Provides: xorg-video-abi-\(major)")
        }
        return nil
    }

    /// The ABI an Xorg module was built for, from its module data (`XF86ModuleVersionInfo`: the two
    /// magic words `MODINFOSTRING1` and `MODINFOSTRING2`, then the server version, the module's version,
    /// the ABI class's name and the ABI version); nil for a file that is not a module.
    package static func moduleABI(atPath path: String) -> VideoABI? {
        let magic = Data([0xC5, 0xFD, 0x23, 0xEF, 0x3A, 0x02, 0xDC, 0x10])
        // The magic words sit at offset 16 of the structure, the ABI version at offset 40.
        guard let data = FileManager.default.contents(atPath: path), let found = data.range(of: magic),
              found.lowerBound + 28 <= data.endIndex else { return nil }
        let word = (0..<4).reduce(UInt32(0)) { $0 | UInt32(data[found.lowerBound + 24 + $1]) << (8 * UInt32($1)) }
        return VideoABI(major: Int(word >> 16), minor: Int(word & 0xFFFF))
    }

    /// The text a module carries after `prefix` (up to its NUL), such as the driver's source hash.
    package static func marker(_ prefix: String, inFile path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path), let range = data.range(of: Data(prefix.utf8)) else { return nil }
        let rest = data[range.upperBound...].prefix { $0 != 0 && $0 < 0x80 }
        return String(decoding: rest, as: UTF8.self)
    }

    /// `Provides: … xorg-video-abi-25 …` of `xserver-xorg-core` in dpkg's status file (read as a file: no
    /// dpkg needed), the ABI major Debian's video driver packages depend on.
    static func dpkgProvidedVideoABI() -> Int? {
        guard let status = try? String(contentsOfFile: "/var/lib/dpkg/status", encoding: .utf8) else { return nil }
        for stanza in status.components(separatedBy: "\n\n") where stanza.hasPrefix("Package: xserver-xorg-core\n") {
            guard stanza.contains("\nStatus: install ok installed"),
                  let provides = stanza.split(separator: "\n").first(where: { $0.hasPrefix("Provides:") }) else { continue }
            for item in provides.dropFirst("Provides:".count).split(separator: ",") {
                let name = item.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
                if name.hasPrefix("xorg-video-abi-"), let n = Int(name.dropFirst("xorg-video-abi-".count)) { return n }
            }
        }
        return nil
    }

    /// The folder of this process's executable, its links resolved (`/proc/self/exe`).
    package static func executableDirectory() -> String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return (path as NSString).deletingLastPathComponent
    }
}
