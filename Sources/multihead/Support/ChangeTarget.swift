import ArgumentParser
import MultiheadControl
import MultiheadServerControl

/// The server that `plug`, `unplug` and `mode` change, and the one guard they share: changing the
/// monitors of a server someone else started surprises its user, so only the kit's own servers (marked
/// on their root window) change without `--force`. With `MULTIHEAD_CONTROL` set the commands never get
/// here: `Entry` sends their request to the server.
struct ChangeTarget: ParsableArguments {
    @OptionGroup var options: DisplayOptions
    @Flag(help: "Change the monitors of a server multihead did not start (a desktop's, with real monitors).")
    var force = false

    /// Its options in a usage line (the commands' usage is written from their requests' declarations).
    static let usage = "[--display <display>] [--force]"

    /// Connects to the server, refuses one the kit did not start unless forced, and runs `body` on it.
    @MainActor
    func change<T>(_ body: (ServerControl) throws -> T) throws -> T {
        let control = try ServerControl(display: options.display)
        defer { control.close() }
        if !force && !control.isPrivateServer {
            throw UsageError(message: "\(control.displayName) is not a server multihead started; pass --force to change its monitors")
        }
        return try body(control)
    }
}
