import Multihead

/// `plug NAME WxH+X+Y`: a virtual monitor added, or an output lit (with an EDID when asked). The one
/// declaration of what `multihead plug` and the socket's `plug` take.
package struct PlugRequest: ControlRequestValue {
    package var name = ""
    package var geometry = PixelGeometry(.zero)
    package var primary = false
    package var rate: Double?
    package var scale: Double?
    package var rotation: MonitorRotation?
    package var identity = MonitorIdentityOptions()

    package init() {}

    package static var name: ControlRequest.Name { .plug }

    package static let declaration = RequestDeclaration<PlugRequest>([
        .positional(\.name, "name", help: "The monitor's name, such as EXT-1."),
        .positional(\.geometry, "geometry", help: "Its geometry, WxH+X+Y."),
        .flag(\.primary, "primary", help: "Make it the primary monitor."),
        .option(\.rate, "rate", help: "For an output: the refresh rate in Hz of the mode to use (nearest within 0.5 Hz); an EDID made for the plug offers its size at that rate."),
        .option(\.scale, "scale", help: "The output's scale, a number from 1 to 4 such as 2 or 1.5 (Wayland: fractional scale, wl_output.scale the next whole number; X has no per-output scale)."),
        .option(\.rotation, "rotation", help: "The monitor turned: normal, left, right or inverted (a portrait monitor is left or right); the geometry's size is its mode, so 1920x1080 turned left covers 1080x1920. Outputs of --xorg (Multihead's driver) and --wayland."),
        .group(\.identity, title: "The monitor's EDID (outputs: --xorg's DP-n, HDMI-n, --xorg-dummy's DUMMYn; a virtual monitor takes --physical-size alone)"),
    ])

    package func validate() throws {
        try validateMonitorName(name)
        let g = geometry.frame
        let r = Rect(origin: g.origin, size: (rotation ?? .normal).turning(g.size))
        guard r.maxX <= 32767, r.maxY <= 32767 else {
            throw UsageError(message: "\(geometry.text) lies outside the largest possible screen, 32767x32767")
        }
        try checkNumber(rate, "--rate", in: 1...1000, unit: " Hz")
        try checkScale(scale)
        try identity.validate()
    }
}
