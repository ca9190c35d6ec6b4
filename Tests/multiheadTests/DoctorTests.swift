import Foundation
import MultiheadTesting
import Testing

/// Runs a copy of the built binary from `folder/bin`, as a package installs it (the driver it looks for
/// beside itself is `folder/lib/multihead/drivers/multihead_drv.so`).
private func runCopy(in folder: String, _ args: [String]) async throws -> CommandResult {
    try await onOwnThread {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        p.arguments = ["--pdeathsig", "TERM", "--", folder + "/bin/multihead"] + args
        let out = Pipe(), err = Pipe()
        (p.standardOutput, p.standardError) = (out, err)
        try launch(p)
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CommandResult(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }
}

private func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

private func kinds(_ json: [String: Any]) -> [String: [String: Any]] {
    Dictionary(uniqueKeysWithValues: ((json["kinds"] as? [[String: Any]]) ?? []).compactMap { k in (k["kind"] as? String).map { ($0, k) } })
}

@MainActor
@Suite("multihead doctor and --version", .timeLimit(.minutes(3)))
struct DoctorTests {
    @Test("--version prints the version; doctor on this machine: every kind can start (the suite's machine has them all), exit 0, text and JSON")
    func thisMachine() async throws {
        let version = try await multihead(["--version"])
        #expect(version.status == 0)
        let number = version.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(number.split(separator: ".").count == 3, "\(number)")

        let text = try await multihead(["doctor"])
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.hasPrefix("multihead \(number)\n"))
        #expect(text.stdout.contains("Kinds of server:"))
        #expect(text.stdout.contains("(default)"))
        #expect(!text.stdout.contains("cannot start"), "\(text.stdout)")

        let r = try await multihead(["doctor", "--json"])
        #expect(r.status == 0)
        let json = try object(r.stdout)
        #expect(json["version"] as? String == number)
        let byKind = kinds(json)
        #expect(Set(byKind.keys) == ["xvfb", "xorg", "xorg-dummy", "wayland"])
        let defaultKind = try #require(json["defaultKind"] as? String)
        #expect(byKind[defaultKind]?["canStart"] as? Bool == true)
        #expect(byKind[defaultKind]?["default"] as? Bool == true)
        let xorg = try #require(json["xorg"] as? [String: Any])
        #expect((xorg["videoABI"] as? String)?.split(separator: ".").count == 2, "\(xorg)")
        let driver = try #require(json["driver"] as? [String: Any])
        #expect(["prebuilt", "cache", "build"].contains(driver["source"] as? String ?? ""), "\(driver)")
        #expect(driver["sourceHash"] as? String == XorgDriver.sourceHash)
    }

    @Test("without Xorg (MULTIHEAD_XORG names none): doctor names xserver-xorg-core, --kind xorg exits 69, Xvfb still starts (exit 0 for it)")
    func withoutXorg() async throws {
        let environment = ["MULTIHEAD_XORG": "/nonexistent/Xorg"]
        let xorg = try await multihead(["doctor", "--kind", "xorg"], environment: environment)
        #expect(xorg.status == 69)
        #expect(xorg.stdout.contains("apt-get install xserver-xorg-core"), "\(xorg.stdout)")
        let xvfb = try await multihead(["doctor", "--kind", "xvfb", "--json"], environment: environment)
        #expect(xvfb.status == 0)
        let byKind = kinds(try object(xvfb.stdout))
        #expect(byKind["xvfb"]?["canStart"] as? Bool == true)
        #expect(byKind["xorg"]?["canStart"] as? Bool == false)
        #expect(byKind["xorg"]?["missing"] as? [String] == ["xserver-xorg-core"])
        #expect(byKind["xorg-dummy"]?["canStart"] as? Bool == false)
        let bad = try await multihead(["doctor", "--kind", "mir"])
        #expect(bad.status == 64)
    }

    @Test("without the compositor (MULTIHEAD_COMPOSITOR names none): --kind wayland exits 69 naming it; the X kinds are unaffected")
    func withoutCompositor() async throws {
        let environment = ["MULTIHEAD_COMPOSITOR": "/nonexistent/multihead-compositor"]
        let wayland = try await multihead(["doctor", "--kind", "wayland"], environment: environment)
        #expect(wayland.status == 69)
        #expect(wayland.stdout.contains("wayland     cannot start: needs compositor"), "\(wayland.stdout)")
        let json = kinds(try object(try await multihead(["doctor", "--json", "--kind", "xvfb"], environment: environment).stdout))
        #expect(json["wayland"]?["canStart"] as? Bool == false && json["xvfb"]?["canStart"] as? Bool == true)
    }

    @Test("a driver beside the CLI (lib/multihead/drivers) is used when it is of this server's ABI and this source; one of another source is not")
    func driverBesideTheCLI() async throws {
        let module = try await XorgDriver.moduleDirectory() + "/drivers/multihead_drv.so"
        let built = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("multihead").path
        let folder = NSTemporaryDirectory() + "mh-test-prefix-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for sub in ["/bin", "/lib/multihead/drivers"] {
            try FileManager.default.createDirectory(atPath: folder + sub, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: built, toPath: folder + "/bin/multihead")
        let beside = folder + "/lib/multihead/drivers/multihead_drv.so"
        try FileManager.default.copyItem(atPath: module, toPath: beside)
        #expect(XorgInstallation.moduleABI(atPath: beside) == XorgInstallation.serverVideoABI()?.abi)

        let used = try await runCopy(in: folder, ["doctor", "--json", "--kind", "xorg"])
        #expect(used.status == 0, "\(used.stderr)")
        let driver = try #require(try object(used.stdout)["driver"] as? [String: Any])
        #expect(driver["source"] as? String == "prebuilt")
        #expect(driver["path"] as? String == beside)
        #expect(driver["abiMatches"] as? Bool == true)

        // The same module with another source hash: from another Multihead, not used.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: beside))
        let marker = Data(XorgDriver.sourceHashMarker.utf8)
        let at = try #require(bytes.range(of: marker)).upperBound
        bytes[at] = bytes[at] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        try bytes.write(to: URL(fileURLWithPath: beside))
        let refused = try await runCopy(in: folder, ["doctor", "--json", "--kind", "xorg"])
        let other = try #require(try object(refused.stdout)["driver"] as? [String: Any])
        #expect(other["path"] as? String != beside)
        if other["source"] as? String != "prebuilt" {   // else a package's driver of this source is installed
            #expect((other["note"] as? String)?.contains("\(beside) is of another Multihead") == true, "\(other)")
        }
    }

    @Test("video ABIs: Xorg's loader rule, and the module data of Xorg's own driver")
    func videoABI() {
        #expect(VideoABI(major: 25, minor: 2).loads(into: VideoABI(major: 25, minor: 2)))
        #expect(VideoABI(major: 25, minor: 0).loads(into: VideoABI(major: 25, minor: 2)))
        #expect(!VideoABI(major: 25, minor: 3).loads(into: VideoABI(major: 25, minor: 2)))
        #expect(!VideoABI(major: 24, minor: 1).loads(into: VideoABI(major: 25, minor: 2)))
        #expect(VideoABI(major: 25, minor: 2).loads(into: VideoABI(major: 25, minor: .max)))
        #expect(XorgInstallation.moduleABI(atPath: "/bin/sh") == nil)
        if let server = XorgInstallation.serverVideoABI() {
            #expect(server.abi.major >= 20)
        }
    }
}
