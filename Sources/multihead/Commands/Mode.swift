import ArgumentParser
import Multihead
import MultiheadTesting

/// `multihead mode NAME WxH`: switch a monitor's mode.
struct Mode: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set a monitor's mode: an output gets a WxH mode (made if missing); a virtual monitor is resized.")

    @OptionGroup var options: DisplayOptions
    @Argument(help: "The monitor's name (an output such as DUMMY1, or a virtual monitor).")
    var name: String
    @Argument(help: "The size, WxH.")
    var size: String
    @Option(help: "The refresh rate of a mode that has to be made, in Hz.")
    var rate: Double = 60
    @Flag(help: "Change the monitors of a desktop that has real ones.")
    var force = false

    func validate() throws {
        guard let r = Rect(geometry: size), r.origin == .zero, r.width <= 32767, r.height <= 32767 else {
            throw ValidationError("\"\(size)\" is not a size like 1280x720")
        }
        guard rate.isFinite, rate > 0, rate < 1000 else { throw ValidationError("--rate must be between 0 and 1000 Hz") }
    }

    @MainActor
    func run() async throws {
        try await withExitStatus {
            guard let r = Rect(geometry: size) else { throw UsageError(message: "bad size \(size)") }
            let control = try ServerControl(display: options.display)
            defer { control.close() }
            try refuseOnDesktop(control, force: force)
            if control.outputNames.contains(name) {
                try control.setOutputMode(name, width: Int(r.width), height: Int(r.height), refreshRate: rate)
            } else {
                let app = try connectShared(options.display)
                guard let screen = app.screen(named: name) else { throw UsageError(message: "no monitor named \(name)") }
                try control.plug(name, frame: Rect(origin: screen.frame.origin, size: r.size))
            }
        }
    }
}
