import ArgumentParser
import MultiheadTesting

/// What `server` and `run` ask of their private X server: the layout, the kind, GLX.
struct ServerOptions: ParsableArguments {
    @Option(help: "Monitor sizes, left to right: WxH,WxH… (VIRTUAL-1, VIRTUAL-2, … on Xvfb; DP-1…DP-8, HDMI-1…HDMI-8 on --xorg; DUMMY0, DUMMY1, … on --xorg-dummy; the first is primary).")
    var monitors: String = "1920x1080,1280x720"
    @Flag(help: "Run Xorg with Multihead's own driver instead of Xvfb: 16 outputs DP-1…DP-8, HDMI-1…HDMI-8 with cables (connection state, EDID), as every toolkit sees real monitors.")
    var xorg = false
    @Flag(help: "Run Xorg with the dummy driver (real outputs with mode lists) instead of Xvfb.")
    var xorgDummy = false
    @Flag(help: "Keep the GLX extension (off by default: it is over a third of Xvfb's start), for apps that draw with OpenGL on GLX.")
    var glx = false

    /// The layout: the sizes placed left to right from (0, 0); at least one (`MonitorLayout`).
    func layout() throws -> [VirtualServer.Monitor] { try MonitorLayout.monitors(monitors, kind: kind) }

    /// The server kind the flags ask for.
    var kind: VirtualServer.Kind { xorg ? .xorg : xorgDummy ? .xorgDummy : .xvfb }

    func validate() throws {
        if xorg && xorgDummy { throw ValidationError("--xorg and --xorg-dummy: pick one") }
        _ = try layout()
    }

    /// Starts the server these options describe, leased from this process's pool: the control socket's
    /// `lease` ends the lease (its clients closed, the server reset and checked) and leases it again.
    @MainActor
    func start() async throws -> VirtualServer {
        try await VirtualServer.start(kind, monitors: layout(), glx: glx)
    }
}
