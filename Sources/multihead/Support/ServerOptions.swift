import ArgumentParser
import MultiheadControl
import MultiheadService
import MultiheadTesting

/// What `server` and `run` ask of their private X server: the layout, the kind, GLX.
struct ServerOptions: ParsableArguments {
    @Option(help: "Monitor sizes, left to right: WxH,WxH…, each up to 16384x16384 (DP-1…DP-8, HDMI-1…HDMI-8 on Xorg with Multihead's driver, whose EDIDs describe a mode past 4095 pixels or 655.35 MHz in a DisplayID block; VIRTUAL-1, VIRTUAL-2, … on Xvfb; DUMMY0, DUMMY1, … on --xorg-dummy; the first is primary). The screen is their bounding box on Xorg, the framebuffer on Xvfb.")
    var monitors: String = "1920x1080,1280x720"
    @Flag(help: "Run Xvfb: virtual monitors, which only RandR 1.5 clients (Multihead, Qt 6) see come and go; GTK, Qt 5, SDL, GLFW and Chromium see no hotplug on it. The default only where Xorg with Multihead's driver cannot start (multihead doctor says why).")
    var xvfb = false
    @Flag(help: "Run Xorg with Multihead's own driver (the default wherever Xorg and the driver, prebuilt or buildable, are there): 16 outputs DP-1…DP-8, HDMI-1…HDMI-8 with cables (connection state, EDID), as every toolkit sees real monitors.")
    var xorg = false
    @Flag(help: "Run Xorg with the dummy driver (real outputs DUMMY0…DUMMY15 with mode lists).")
    var xorgDummy = false
    @Flag(help: "Run Multihead's headless Wayland compositor (Compositor/, built by Scripts/build-compositor) with Xwayland inside: outputs DP-1…DP-8, HDMI-1…HDMI-8 with a per-output scale (plug --scale), seen by GTK 4, Qt 6 and the other toolkits on native Wayland; its clients get WAYLAND_DISPLAY, XDG_RUNTIME_DIR and DISPLAY (Xwayland).")
    var wayland = false
    @Flag(help: "Keep the GLX extension (off by default: it is over a third of Xvfb's start), for apps that draw with OpenGL on GLX.")
    var glx = false
    @Flag(help: "Run openbox (Debian's openbox) on the X server for each lease, set up for tests: no decorations, fullscreen and maximize per monitor, a window on an unplugged monitor moved to the main one. The compositor of --wayland is its own window manager.")
    var wm = false

    /// The layout: the sizes placed left to right from (0, 0); at least one (`MonitorLayout`).
    func layout() throws -> [VirtualServer.Monitor] { try MonitorLayout.monitors(monitors, kind: serverKind) }

    /// The kind a flag names (nil: none does, and `DefaultKind` decides).
    var requestedKind: VirtualServer.Kind? { xvfb ? .xvfb : xorg ? .xorg : xorgDummy ? .xorgDummy : nil }

    /// The server kind to start: the flag's, else the default (`DefaultKind.here`).
    var kind: VirtualServer.Kind { requestedKind ?? DefaultKind.here.kind }

    /// The kind to start, Wayland included: `--wayland` is no X server, and never the default.
    var serverKind: VirtualServer.Kind { wayland ? .wayland : kind }

    func validate() throws {
        let named = [("--xvfb", xvfb), ("--xorg", xorg), ("--xorg-dummy", xorgDummy), ("--wayland", wayland)].filter(\.1).map(\.0)
        if named.count > 1 { throw ValidationError("\(named.joined(separator: " and ")): each names the kind of server, pick one") }
        if wayland && glx { throw ValidationError("--glx is an X server's extension; under --wayland, Xwayland has its own GLX") }
        if wayland && wm { throw ValidationError("--wm runs openbox on an X server; under --wayland the compositor is its own window manager") }
        _ = try layout()
    }

    /// Starts the server these options describe, leased from this process's pool: the control socket's
    /// `lease` ends the lease (its clients closed, the server reset and checked) and leases it again. The
    /// default kind, when it is Xvfb, says why on stderr first (one line).
    @MainActor
    func start(pooledIn pool: ServerPool) async throws -> VirtualServer {
        if requestedKind == nil, let notice = DefaultKind.here.notice { printError(notice) }
        return try await VirtualServer.start(kind, monitors: layout(), glx: glx, pool: pool)
    }
}
