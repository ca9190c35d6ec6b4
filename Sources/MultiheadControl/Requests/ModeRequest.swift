import ArgumentParser
import Multihead

/// `mode NAME WxH`: an output's mode switched (made if the server has none of that size), or a virtual
/// monitor resized.
package struct ModeRequest: ControlArguments {
    @Argument(help: "The monitor's name (an output such as DUMMY1, or a virtual monitor).")
    package var name: String
    @Argument(help: "The size, WxH.")
    package var size: String
    @Option(parsing: .unconditional,
            help: "The refresh rate in Hz: the mode of that size nearest to it, within 0.5 Hz (default: the preferred, else the fastest progressive one).")
    package var rate: DecimalArgument?
    @Option(parsing: .unconditional, help: "The output's new scale, a number from 1 to 4 such as 2 or 1.5 (Wayland: fractional scale, wl_output.scale the next whole number; X has no per-output scale).")
    package var scale: DecimalArgument?
    @Option(help: "Turn the monitor too: normal, left, right or inverted (default: as it is turned); the size is its mode. Outputs of --xorg (Multihead's driver) and --wayland.")
    package var rotation: MonitorRotation?

    package init() {}

    package static let fields: [ControlField] = [.positional("name", .string), .positional("size", .string),
                                                 .option("rate", .number), .option("scale", .number), .option("rotation", .string)]

    package func validate() throws {
        let r = try pixelGeometry(size, example: "1280x720")
        guard r.origin == .zero, r.width <= 32767, r.height <= 32767 else {
            throw ValidationError("\"\(size.terminalEscaped)\" is not a size like 1280x720, at most 32767x32767")
        }
        try rate?.check("--rate", in: 1...1000, unit: " Hz")
        try checkScale(scale)
    }
}
