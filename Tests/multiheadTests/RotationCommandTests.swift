import Foundation
import MultiheadControl
import Testing

/// `--rotation` on `plug` and `mode`, from the command line through a server's control socket: done where
/// the kind can turn a monitor, a usage error naming the kind where it cannot.
@Suite("--rotation on the command line", .timeLimit(.minutes(3)))
struct RotationCommandTests {
    @Test("each kind: turned on --xorg (screens --json says 90 and the turned frame), refused with 64 naming --xvfb and --xorg-dummy",
          arguments: [("--xorg", "HDMI-1"), ("--xvfb", "EXT-1"), ("--xorg-dummy", "DUMMY1")])
    func turnedOrRefused(kind: String, name: String) async throws {
        let (p, out) = try launchMultihead(["server", kind, "--monitors", "1280x720"], environment: [:])
        let env = await LineReader(out).serverAssignments()
        defer { p.terminate() }
        let socket = ["MULTIHEAD_CONTROL": try #require(env["MULTIHEAD_CONTROL"])]
        let plugged = try await multihead(["plug", name, "1920x1080+1280+0", "--rotation", "left"], environment: socket)
        if kind == "--xorg" {
            #expect(plugged.status == 0, "\(plugged.stderr)")
            let listed = try await multihead(["screens", "--json"], environment: socket)
            guard case .array(let screens)? = JSONValue.parse(Array(listed.stdout.utf8)) else { Issue.record("\(listed.stdout)"); return }
            let turned = try #require(screens.first { $0["name"]?.string == name })
            #expect(turned["rotation"]?.int == 90)
            #expect(turned["frame"]?["width"]?.int == 1080 && turned["frame"]?["height"]?.int == 1920)
            let back = try await multihead(["mode", name, "1920x1080", "--rotation", "normal"], environment: socket)
            #expect(back.status == 0 && back.stdout.hasPrefix("\(name): 1920x1080"), "\(back.stdout) \(back.stderr)")
        } else {
            let kindName = String(kind.dropFirst(2))
            #expect(plugged.status == 64, "\(plugged.stderr)")
            #expect(plugged.stderr.contains("the \(kindName) kind cannot turn a monitor"), "\(plugged.stderr)")
            let listed = try await multihead(["screens", "--json"], environment: socket)
            #expect(!listed.stdout.contains("\"\(name)\""), "\(listed.stdout)")
        }
        let bad = try await multihead(["plug", name, "1920x1080+1280+0", "--rotation", "sideways"], environment: socket)
        #expect(bad.status == 64 && bad.stderr.contains("sideways"), "\(bad.stderr)")
        p.terminate()
        _ = await finish(p, reading: out)
    }
}
