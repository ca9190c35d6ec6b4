import ArgumentParser
import Multihead
import MultiheadServerControl
import MultiheadX11

extension MultiheadCommand {
    /// `multihead plug NAME WxH+X+Y`: add a virtual monitor, or light an output (with an EDID when asked).
    struct Plug: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plug", abstract: "Plug a virtual monitor into the X server (refused on a desktop with real monitors unless --force).")

        @OptionGroup var options: DisplayOptions
        @Argument(help: "The monitor's name, such as EXT-1.")
        var name: String
        @Argument(help: "Its geometry, WxH+X+Y.")
        var geometry: String
        @Flag(help: "Make it the primary monitor.")
        var primary = false
        @Flag(help: "Change the monitors of a desktop that has real ones.")
        var force = false

        @Option(parsing: .unconditional, help: "For an output: the refresh rate in Hz of the mode to use (nearest within 0.5 Hz).")
        var rate: DecimalArgument?
        @OptionGroup(title: "The monitor's EDID (outputs: --xorg's DP-n, HDMI-n, --xorg-dummy's DUMMYn; a virtual monitor takes --physical-size alone)")
        var identity: MonitorIdentityOptions

        func validate() throws {
            try validateMonitorName(name)
            let r = try pixelGeometry(geometry, example: "1280x720+1920+0")
            guard r.maxX <= 32767, r.maxY <= 32767 else {
                throw ValidationError("\(geometry.terminalEscaped) lies outside the largest possible screen, 32767x32767")
            }
            try rate?.check("--rate", in: 1...1000, unit: " Hz")
        }

        @MainActor
        func run() async throws {
            // With MULTIHEAD_CONTROL set the command never gets here: `Entry` sends its arguments to the server.
            try await withExitStatus {
                let control = try ServerControl(display: options.display)
                defer { control.close() }
                try refuseOnDesktop(control, force: force)
                try perform(control)
            }
        }

        /// Plugs the monitor: the command's work, for the command line and the control socket alike.
        @MainActor
        func perform(_ control: ServerControl) throws {
            let frame = try pixelGeometry(geometry, example: "1280x720+1920+0")
            // A virtual monitor given only a size: its millimetres, as RandR reports them (it has no EDID).
            if identity.givesOnlySize, !control.outputNames.contains(name) {
                try control.plug(name, frame: frame, primary: primary, refreshRate: rate?.value, physicalSize: identity.size())
                return
            }
            try control.plug(name, frame: frame, primary: primary, refreshRate: rate?.value,
                             edid: identity.edidBytes(preferred: frame.size))
        }
    }
}


/// Changing the monitors of a server someone else started surprises its user: only the kit's own
/// servers (marked on their root window) change without --force.
@MainActor
func refuseOnDesktop(_ control: ServerControl, force: Bool) throws {
    if !force && !control.isPrivateServer {
        throw UsageError(message: "\(control.displayName) is not a server multihead started; pass --force to change its monitors")
    }
}

/// A name RandR can take: 1…255 bytes.
func validateMonitorName(_ name: String) throws {
    guard !name.isEmpty else { throw ValidationError("the monitor needs a name") }
    guard name.utf8.count <= 255 else {
        throw ValidationError("a monitor name has at most 255 bytes; this one has \(name.utf8.count)")
    }
}

/// A geometry on the command line, "WxH+X+Y" (or "WxH" when `example` has no position): whole pixels,
/// a size above 0 and a position at 0 or more, or a usage error that quotes it.
func pixelGeometry(_ text: String, example: String) throws -> Rect {
    guard let r = Rect(geometry: text) else {
        throw ValidationError("\"\(text.terminalEscaped)\" is not a geometry like \(example)")
    }
    guard [r.minX, r.minY, r.width, r.height].allSatisfy({ $0.rounded() == $0 }) else {
        throw ValidationError("\"\(text.terminalEscaped)\" is not in whole pixels (like \(example))")
    }
    guard r.minX >= 0, r.minY >= 0 else {
        throw ValidationError("\"\(text.terminalEscaped)\": the position must be 0 or more, not \(Int(r.minX)),\(Int(r.minY))")
    }
    return r
}

/// The usage error for a geometry or size that starts with "-", which the parser would take for an
/// option ("Missing expected argument"): a size or a position cannot be negative.
func negativeGeometry(in arguments: [String]) -> String? {
    guard let command = arguments.first, ["plug", "mode"].contains(command) else { return nil }
    // "-100x100+0+0": a minus, digits, an x. A negative number alone ("--rate -5") is the parser's to judge.
    func looksLikeGeometry(_ s: String) -> Bool {
        let body = s.dropFirst()
        return s.hasPrefix("-") && body.first?.isNumber == true && body.drop { $0.isNumber }.first.map { $0 == "x" || $0 == "X" } == true
    }
    guard let bad = arguments.dropFirst().first(where: looksLikeGeometry) else { return nil }
    return "\"\(bad.terminalEscaped)\" is not a geometry: a size or a position cannot be negative"
}
