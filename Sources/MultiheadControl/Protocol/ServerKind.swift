import MultiheadTesting

/// The kinds of server `multihead server`, `run`, the control socket's `hello` and the pytest plugin name:
/// the kit's X servers, and Multihead's Wayland compositor, which is no X server (it has no pool of warm
/// X servers, no cookies, no RandR) and has a control service of its own (`WaylandControlService`).
package enum ServerKind: Equatable, Sendable {
    /// An X server of the kit (`VirtualServer`).
    case x(VirtualServer.Kind)
    /// Multihead's headless Wayland compositor with Xwayland inside (`WaylandServer`).
    case wayland

    /// The kind as the flags, `hello` and the pytest plugin spell it: xvfb, xorg, xorg-dummy, wayland.
    package var name: String {
        switch self {
        case .x(let kind): kind.name
        case .wayland: "wayland"
        }
    }
}
