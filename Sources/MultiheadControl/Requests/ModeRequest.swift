import Multihead

/// `mode NAME WxH`: an output's mode switched (made if the server has none of that size), or a virtual
/// monitor resized.
package struct ModeRequest: ControlRequestValue {
    package var name = ""
    package var size = PixelSize(.zero)
    package var rate: Double?
    package var scale: Double?
    package var rotation: MonitorRotation?

    package init() {}

    package static var name: ControlRequest.Name { .mode }

    package static let declaration = RequestDeclaration<ModeRequest>([
        .positional(\.name, "name", help: "The monitor's name (an output such as DUMMY1, or a virtual monitor)."),
        .positional(\.size, "size", help: "The size, WxH."),
        .option(\.rate, "rate", help: "The refresh rate in Hz: the mode of that size nearest to it, within 0.5 Hz (default: the preferred, else the fastest progressive one)."),
        .option(\.scale, "scale", help: "The output's new scale, a number from 1 to 4 such as 2 or 1.5 (Wayland: fractional scale, wl_output.scale the next whole number; X has no per-output scale)."),
        .option(\.rotation, "rotation", help: "Turn the monitor too: normal, left, right or inverted (default: as it is turned); the size is its mode. Outputs of --xorg (Multihead's driver) and --wayland."),
    ])

    package func validate() throws {
        try checkNumber(rate, "--rate", in: 1...1000, unit: " Hz")
        try checkScale(scale)
    }
}
