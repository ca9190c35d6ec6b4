import Foundation
import Multihead
import MultiheadTesting
import Testing

/// `multihead windows`, `move-window` and `fullscreen-window` on a display alone (no control socket):
/// another client's GTK 3 window (Tests/ToolkitClients/gtk-window.py) listed, moved and made fullscreen;
/// mistakes exit 64 with the reason.
@MainActor
@Suite("The window commands on a DISPLAY", .timeLimit(.minutes(2)))
struct WindowCommandTests {
    @Test("windows lists a GTK window; move-window and fullscreen-window put it on DP-2; mistakes exit 64")
    func commands() async throws {
        let server = try await VirtualServer.start(monitors: [.init("DP-1", "1024x768+0+0", primary: true), .init("DP-2", "800x600+1024+0")])
        defer { server.stop() }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ToolkitClients/gtk-window.py").path
        let client = try ChildProcess.spawn("/usr/bin/python3", [script, "cli window", "336699", "300x200"], environment: server.environment,
                                            diesWithParent: true, withInput: true)
        defer { client.terminate(grace: 0, signal: SIGKILL) }
        #expect(await onOwnThread { Self.readUntil(client.stdout, "drawn 300x200") })
        let env = server.environment

        let listed = try await multihead(["windows", "--json", "--display", server.display], environment: env)
        #expect(listed.status == 0, "\(listed.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let row = try #require(rows.first { $0["title"] as? String == "cli window" })
        #expect(row["pid"] as? Int == Int(client.pid) && row["screen"] as? String == "DP-1" && row["appId"] as? String == "Multihead-window")
        let id = try #require(row["id"] as? Int)

        let table = try await multihead(["windows", "--display", server.display], environment: env)
        #expect(table.stdout.hasPrefix("ID ") && table.stdout.contains("\(id)  DP-1") && table.stdout.contains("cli window"))

        let moved = try await multihead(["move-window", String(id), "DP-2", "--x", "10", "--y", "20", "--display", server.display], environment: env)
        #expect(moved.status == 0 && moved.stdout.contains("DP-2") && moved.stdout.contains("300x200+1034+20"), "\(moved.stdout)\(moved.stderr)")
        let full = try await multihead(["fullscreen-window", String(id), "DP-2", "--display", server.display], environment: env)
        #expect(full.status == 0 && full.stdout.contains("800x600+1024+0") && full.stdout.contains("fullscreen"), "\(full.stdout)\(full.stderr)")

        let unknown = try await multihead(["move-window", "99", "DP-2", "--display", server.display], environment: env)
        #expect(unknown.status == 64 && unknown.stderr.contains("no top-level window 99"))
        let half = try await multihead(["move-window", String(id), "DP-2", "--x", "5", "--display", server.display], environment: env)
        #expect(half.status == 64 && half.stderr.contains("\"x\" with \"y\""))
        let screen = try await multihead(["fullscreen-window", String(id), "DP-9", "--display", server.display], environment: env)
        #expect(screen.status == 64 && screen.stderr.contains("DP-9"))
        let far = try await multihead(["move-window", String(id), "DP-2", "--x", "0", "--y", "40000", "--display", server.display], environment: env)
        #expect(far.status == 64 && far.stderr.contains("±32767"))
    }

    @Test("--wm is an X server's: with --wayland it exits 64 with the reason")
    func windowManagerOnWayland() async throws {
        for command in ["server", "run"] {
            let r = try await multihead([command, "--wayland", "--wm"] + (command == "run" ? ["--", "true"] : []))
            #expect(r.status == 64 && r.stderr.contains("--wm runs openbox on an X server"), "\(command): \(r.stderr)")
        }
    }

    /// Reads the pipe's lines until one is `line`; false at its end.
    nonisolated static func readUntil(_ fd: Int32, _ line: String) -> Bool {
        var buffer: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            while let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let text = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                if text == line { return true }
            }
            let n = read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            buffer.append(contentsOf: chunk[..<n])
        }
    }
}
