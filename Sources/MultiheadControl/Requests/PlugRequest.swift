import ArgumentParser
import Multihead

/// `plug NAME WxH+X+Y`: a virtual monitor added, or an output lit (with an EDID when asked). The one
/// declaration of what `multihead plug` and the socket's `plug` take.
package struct PlugRequest: ControlArguments {
    @Argument(help: "The monitor's name, such as EXT-1.")
    package var name: String
    @Argument(help: "Its geometry, WxH+X+Y.")
    package var geometry: String
    @Flag(help: "Make it the primary monitor.")
    package var primary = false
    @Option(parsing: .unconditional, help: "For an output: the refresh rate in Hz of the mode to use (nearest within 0.5 Hz); an EDID made for the plug offers its size at that rate.")
    package var rate: DecimalArgument?
    @Option(parsing: .unconditional, help: "The output's scale, a number from 1 to 4 such as 2 or 1.5 (Wayland: fractional scale, wl_output.scale the next whole number; X has no per-output scale).")
    package var scale: DecimalArgument?
    @Option(help: "The monitor turned: normal, left, right or inverted (a portrait monitor is left or right); the geometry's size is its mode, so 1920x1080 turned left covers 1080x1920. Outputs of --xorg (Multihead's driver) and --wayland.")
    package var rotation: MonitorRotation?
    @OptionGroup(title: "The monitor's EDID (outputs: --xorg's DP-n, HDMI-n, --xorg-dummy's DUMMYn; a virtual monitor takes --physical-size alone)")
    package var identity: MonitorIdentityOptions

    package init() {}

    package static let fields: [ControlField] = [.positional("name", .string), .positional("geometry", .string),
                                                 .option("primary", .flag), .option("rate", .number),
                                                 .option("scale", .number), .option("rotation", .string)] + MonitorIdentityOptions.fields

    package func validate() throws {
        try validateMonitorName(name)
        let g = try pixelGeometry(geometry, example: "1280x720+1920+0")
        let r = Rect(origin: g.origin, size: (rotation ?? .normal).turning(g.size))
        guard r.maxX <= 32767, r.maxY <= 32767 else {
            throw ValidationError("\(geometry.terminalEscaped) lies outside the largest possible screen, 32767x32767")
        }
        try rate?.check("--rate", in: 1...1000, unit: " Hz")
        try checkScale(scale)
    }
}
