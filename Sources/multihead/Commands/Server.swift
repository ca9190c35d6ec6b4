import ArgumentParser
import Dispatch
import Foundation
import Multihead
import MultiheadTesting

/// `multihead server`: a private X server for trying things out, until interrupted.
struct Server: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server", abstract: "Start a private Xvfb with a monitor layout, in the foreground; print its DISPLAY and XAUTHORITY (lines an eval can use); stop it on SIGINT or SIGTERM.")

    @Option(help: "Monitor sizes, left to right: WxH,WxH… (VIRTUAL-1, VIRTUAL-2, … on Xvfb; DUMMY0, DUMMY1, … on Xorg; the first is primary).")
    var monitors: String = "1920x1080,1280x720"
    @Flag(help: "Run Xorg with the dummy driver (real outputs with mode lists) instead of Xvfb.")
    var xorgDummy = false

    /// The layout: sizes placed left to right from (0, 0).
    static func layout(_ text: String, xorg: Bool = false) throws -> [VirtualServer.Monitor] {
        var x = 0.0
        return try text.split(separator: ",").enumerated().map { i, part in
            guard let r = Rect(geometry: String(part)), r.origin == .zero, r.width <= 16384, r.height <= 16384 else {
                throw ValidationError("--monitors: \"\(part)\" is not a size like 1920x1080")
            }
            defer { x += r.width }
            guard !xorg || i < 16 else { throw ValidationError("--monitors: Xorg's dummy driver has 16 outputs") }
            let name = xorg ? "DUMMY\(i)" : "VIRTUAL-\(i + 1)"
            return .init(name: name, frame: Rect(x: x, y: 0, width: r.width, height: r.height), primary: i == 0)
        }
    }

    func validate() throws {
        let l = try Self.layout(monitors, xorg: xorgDummy)
        if l.isEmpty { throw ValidationError("--monitors needs at least one size") }
    }

    @MainActor
    func run() async throws {
        try await withExitStatus {
            let server = try await VirtualServer.start(xorgDummy ? .xorgDummy : .xvfb, monitors: try Self.layout(monitors, xorg: xorgDummy))
            print("DISPLAY=\(server.display)")
            print("XAUTHORITY=\(server.authorityFile)")
            print("PID=\(server.pid)")
            flushStandardOutput()
            // Runs until a signal: the kit's handler stops the server, removes its files and exits with
            // 128 + the signal (130 for SIGINT, 143 for SIGTERM); SIGKILL ends the server through its
            // parent-death signal.
            while true { try await Task.sleep(for: .seconds(3600)) }
        }
    }
}
