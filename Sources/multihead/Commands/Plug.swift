import ArgumentParser
import Multihead
import MultiheadTesting

/// `multihead plug NAME WxH+X+Y`: add a virtual monitor.
struct Plug: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Plug a virtual monitor into the X server (refused on a desktop with real monitors unless --force).")

    @OptionGroup var options: DisplayOptions
    @Argument(help: "The monitor's name, such as EXT-1.")
    var name: String
    @Argument(help: "Its geometry, WxH+X+Y.")
    var geometry: String
    @Flag(help: "Make it the primary monitor.")
    var primary = false
    @Flag(help: "Change the monitors of a desktop that has real ones.")
    var force = false

    func validate() throws {
        guard Rect(geometry: geometry) != nil else { throw ValidationError("\"\(geometry)\" is not a geometry like 1280x720+1920+0") }
        guard !name.isEmpty else { throw ValidationError("the monitor needs a name") }
    }

    @MainActor
    func run() async throws {
        try await withExitStatus {
            let control = try ServerControl(display: options.display)
            defer { control.close() }
            try refuseOnDesktop(control, force: force)
            guard let frame = Rect(geometry: geometry) else { throw UsageError(message: "bad geometry \(geometry)") }
            try control.plug(name, frame: frame, primary: primary)
        }
    }
}

/// `multihead unplug NAME`: remove a virtual monitor.
struct Unplug: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Unplug a virtual monitor from the X server.")

    @OptionGroup var options: DisplayOptions
    @Argument(help: "The monitor's name.")
    var name: String
    @Flag(help: "Change the monitors of a desktop that has real ones.")
    var force = false

    @MainActor
    func run() async throws {
        try await withExitStatus {
            let control = try ServerControl(display: options.display)
            defer { control.close() }
            try refuseOnDesktop(control, force: force)
            try control.unplug(name)
        }
    }
}

/// Changing a real desktop's monitor layout surprises its user: ask for --force.
@MainActor
func refuseOnDesktop(_ control: ServerControl, force: Bool) throws {
    if !force && !control.isPrivateServer {
        throw UsageError(message: "\(control.displayName) has real monitors; pass --force to change its layout")
    }
}
