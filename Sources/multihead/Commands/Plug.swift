import ArgumentParser
import Multihead
import MultiheadTesting

/// `multihead plug NAME WxH+X+Y`: add a virtual monitor.
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

    func validate() throws {
        try validateMonitorName(name)
        guard let r = Rect(geometry: geometry) else {
            throw ValidationError("\"\(geometry.terminalEscaped)\" is not a geometry like 1280x720+1920+0")
        }
        guard r.minX >= 0, r.minY >= 0 else { throw ValidationError("the position must be ≥ 0, not \(r.minX),\(r.minY)") }
        guard r.maxX <= 32767, r.maxY <= 32767 else { throw ValidationError("\(geometry) lies outside the largest possible screen, 32767x32767") }
        try rate?.check("--rate", in: 1...1000, unit: " Hz")
    }

    @MainActor
    func run() async throws {
        try await withExitStatus {
            let control = try ServerControl(display: options.display)
            defer { control.close() }
            try refuseOnDesktop(control, force: force)
            guard let frame = Rect(geometry: geometry) else { throw UsageError(message: "bad geometry \(geometry)") }
            try control.plug(name, frame: frame, primary: primary, refreshRate: rate?.value)
        }
    }
}

/// `multihead unplug NAME`: remove a virtual monitor.
struct Unplug: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unplug", abstract: "Unplug a virtual monitor from the X server.")

    @OptionGroup var options: DisplayOptions
    @Argument(help: "The monitor's name.")
    var name: String
    @Flag(help: "Change the monitors of a server the kit did not start.")
    var force = false
    @Flag(help: "Unplugging the primary: keep X's rule (the primary stays on the dark output) instead of making the new main screen's output primary.")
    var keepPrimary = false

    func validate() throws { try validateMonitorName(name) }

    @MainActor
    func run() async throws {
        try await withExitStatus {
            let control = try ServerControl(display: options.display)
            defer { control.close() }
            try refuseOnDesktop(control, force: force)
            try control.unplug(name, keepPrimary: keepPrimary)
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
