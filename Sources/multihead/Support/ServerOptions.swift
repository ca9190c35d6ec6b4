import ArgumentParser
import MultiheadTesting

/// What `server` and `run` ask of their private X server: the layout, the kind, GLX.
struct ServerOptions: ParsableArguments {
    @Option(help: "Monitor sizes, left to right: WxH,WxH… (VIRTUAL-1, VIRTUAL-2, … on Xvfb; DUMMY0, DUMMY1, … on Xorg; the first is primary).")
    var monitors: String = "1920x1080,1280x720"
    @Flag(help: "Run Xorg with the dummy driver (real outputs with mode lists) instead of Xvfb.")
    var xorgDummy = false
    @Flag(help: "Keep the GLX extension (off by default: it is over a third of Xvfb's start), for apps that draw with OpenGL on GLX.")
    var glx = false

    /// The layout: the sizes placed left to right from (0, 0); at least one.
    func layout() throws -> [VirtualServer.Monitor] {
        let l = try MultiheadCommand.Server.layout(monitors, xorg: xorgDummy)
        if l.isEmpty { throw ValidationError("--monitors needs at least one size") }
        return l
    }

    func validate() throws { _ = try layout() }

    /// Starts the server these options describe: a fresh one, which ends with the command (a pooled one
    /// would only be reset for a next test this process never runs).
    @MainActor
    func start() async throws -> VirtualServer {
        try await VirtualServer.start(xorgDummy ? .xorgDummy : .xvfb, monitors: layout(), glx: glx, fresh: true)
    }
}
