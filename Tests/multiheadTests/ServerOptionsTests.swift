import Foundation
import Multihead
import MultiheadTesting
import Testing

@MainActor
@Suite("server and run options: what the X server is started with", .timeLimit(.minutes(3)))
struct ServerOptionsTests {
    /// The X server's own command line, as `ps` shows it (/proc/PID/cmdline).
    func commandLine(of pid: Int32) -> [String] {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("server starts its X server without GLX unless --glx, on Xvfb and on Xorg", arguments: [["--xvfb"], ["--xorg-dummy"]])
    func glxOnlyWhenAsked(kind: [String]) async throws {
        for glx in [false, true] {
            let (p, out) = try launchMultihead(["server", "--monitors", "640x480"] + kind + (glx ? ["--glx"] : []), environment: [:])
            let reader = LineReader(out)
            var xPID: Int32 = 0
            while let line = await reader.nextLine() {
                if line.hasPrefix("PID=") { xPID = Int32(line.dropFirst(4)) ?? 0; break }
            }
            try #require(xPID > 0)
            let args = commandLine(of: xPID)
            let disabled = zip(args, args.dropFirst()).contains { $0 == "-extension" && $1 == "GLX" }
            #expect(disabled == !glx, "\(args)")
            kill(p.processIdentifier, SIGTERM)
            await exited(p)
            #expect(await waitUntilEnded(xPID))
        }
    }
}
