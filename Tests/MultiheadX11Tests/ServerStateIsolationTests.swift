internal import CXlib
import Foundation
import Multihead
@testable import MultiheadServerControl
@testable import MultiheadTesting
@testable import MultiheadX11
import Testing

/// What one test leaves in a warm server's server-wide state is gone in the next test on it: each kind is
/// changed as a user's test would (xhost, xset, xsetroot, XKB), and the next lease's reading equals the
/// fresh server's. The readings come from Tests/ToolkitClients/server-state.py (libX11, libXss and
/// libXfixes through ctypes: none of the kit's code).
@MainActor
@Suite("Warm servers: no server-wide state passes to the next test", .timeLimit(.minutes(3)))
struct ServerStateIsolationTests {
    /// One kind of state: how a test changes it, and the reading's key that shows it.
    struct Kind: Sendable, CustomTestStringConvertible {
        var name: String
        var command: String?
        var key: String
        var testDescription: String { name }
    }

    nonisolated static let kinds: [Kind] = [
        Kind(name: "access control off", command: "xhost +", key: "accessControl"),
        Kind(name: "an added host", command: "xhost +si:localuser:nobody", key: "hosts"),
        Kind(name: "screen saver timeout", command: "xset s 300 60 noblank", key: "screenSaver"),
        Kind(name: "screen saver active", command: "xset s activate", key: "screenSaverState"),
        Kind(name: "keyboard control: auto-repeat, bell, click", command: "xset r off b 10 440 50 c 30 -r 38", key: "keyboard"),
        Kind(name: "pointer acceleration", command: "xset m 7/2 9", key: "pointer"),
        Kind(name: "font path", command: "xset fp- /usr/share/fonts/X11/Type1", key: "fontPath"),
        Kind(name: "XKB controls and repeat rate", command: nil, key: "xkb"),
        Kind(name: "root background", command: "xsetroot -solid red", key: "rootPixel"),
        Kind(name: "root cursor", command: "xsetroot -cursor_name watch", key: "cursor"),
    ]

    /// The server's state as server-state.py reads it, the root pixel at (10, 10).
    static func reading(_ server: VirtualServer) async throws -> [String: String] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ToolkitClients/server-state.py").path
        let child = try ChildProcess.spawn("/usr/bin/python3", [script, "10", "10"], environment: server.environment)
        let (status, out, err) = await onOwnThread { child.collect() }
        guard status == 0, let json = try JSONSerialization.jsonObject(with: out) as? [String: Any] else {
            throw VirtualServerError.commandFailed(command: "server-state.py", output: String(decoding: err, as: UTF8.self))
        }
        // Each value as text: compared whole.
        return json.mapValues { value in
            let data = (try? JSONSerialization.data(withJSONObject: ["v": value], options: .sortedKeys)) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Changes the state as a user's test would.
    static func change(_ kind: Kind, on server: VirtualServer) async throws {
        if let command = kind.command {
            let child = try ChildProcess.spawn("/bin/sh", ["-c", command], environment: server.environment)
            let (status, _, err) = await onOwnThread { child.collect() }
            guard status == 0 else { throw VirtualServerError.commandFailed(command: command, output: String(decoding: err, as: UTF8.self)) }
            return
        }
        // StickyKeys and SlowKeys on, a faster repeat: what an accessibility test might leave.
        let c = try server.controlConnection().connection
        try c.trap("XKB controls") {
            let both = UInt32(XkbStickyKeysMask | XkbSlowKeysMask)
            XkbChangeEnabledControls(c.display, UInt32(XkbUseCoreKbd), both, both)
            XkbSetAutoRepeatRate(c.display, UInt32(XkbUseCoreKbd), 200, 20)
        }
    }

    @Test("the next lease reads as the fresh server did", arguments: kinds.indices)
    func stateIsReset(index: Int) async throws {
        let kind = Self.kinds[index]
        // A framebuffer of this case's own: its pool holds only this server.
        let framebuffer = Size(width: 7680, height: 4320 + 40 + Double(index))
        let first = try await VirtualServer.start(framebuffer: framebuffer)
        #expect(!first.isWarm)
        let fresh = try await Self.reading(first)
        try await Self.change(kind, on: first)
        let changed = try await Self.reading(first)
        #expect(changed[kind.key] != fresh[kind.key], "the change did not take: \(kind.key) \(changed[kind.key] ?? "")")
        first.stop()
        let next = try await VirtualServer.start(framebuffer: framebuffer)
        defer { next.stop() }
        #expect(next.isWarm, "the server was not reused: \(ServerPool.shared.lastRefusal)")
        let after = try await Self.reading(next)
        #expect(after == fresh, "\(kind.name): \(after.filter { fresh[$0.key] != $0.value })")
    }
}
