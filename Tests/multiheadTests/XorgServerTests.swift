#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MultiheadTesting
import Testing

/// `multihead server --xorg`: Xorg with Multihead's own driver, also for a user who is not root.
@MainActor
@Suite("server --xorg", .timeLimit(.minutes(2)))
struct XorgServerTests {
    @Test("server --xorg runs as a user without root (nobody, no home), copied away from its checkout: its X server is that user's, the layout's outputs are connected, SIGTERM ends both and their files")
    func nonRootServer() async throws {
        // A copy of the CLI in a folder of its own, as a user installs it: the driver's source travels
        // inside it, and the checkout (which may be a 0700 folder) is never read.
        let built = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("multihead").path
        let folder = NSTemporaryDirectory() + "mh-test-cli-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bin = folder + "/multihead"
        try FileManager.default.copyItem(atPath: built, toPath: bin)
        let args = ["--pdeathsig", "TERM"] + (getuid() == 0 ? ["--reuid=65534", "--regid=65534", "--clear-groups"] : [])
            + ["--", bin, "server", "--xorg", "--monitors", "1024x768,800x600"]
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        p.arguments = args
        // No home to cache the driver in: the kit builds it in the command's own temporary folder.
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = "/nonexistent"
        environment["XDG_CACHE_HOME"] = nil
        environment["MULTIHEAD_XORG_DRIVER_DIR"] = nil
        p.environment = environment
        let out = Pipe(), err = Pipe()
        (p.standardOutput, p.standardError) = (out, err)
        try launch(p)
        let values = await LineReader(out).serverAssignments()
        let xPID = try #require(values["PID"].flatMap { Int32($0) },
                                "no PID line; stderr: \(String(decoding: err.fileHandleForReading.availableData, as: UTF8.self))")
        let status = (try? String(contentsOfFile: "/proc/\(xPID)/status", encoding: .utf8)) ?? ""
        let uid = status.split(separator: "\n").first { $0.hasPrefix("Uid:") }?.split(whereSeparator: \.isWhitespace).dropFirst().first
        #expect(uid.map(String.init) == (getuid() == 0 ? "65534" : String(getuid())))
        let r = try await multihead(["screens", "--json"], environment: ["DISPLAY": values["DISPLAY"] ?? "", "XAUTHORITY": values["XAUTHORITY"] ?? ""])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(json.map { $0["name"] as? String } == ["DP-1", "DP-2"])
        #expect(json.map { $0["model"] as? String } == ["DP-1", "DP-2"])
        p.terminate()
        await exited(p)
        #expect(p.terminationStatus == 143)
        #expect(hasEnded(xPID))
        #expect(sessionDirectories(of: p.processIdentifier).isEmpty)
    }
}
