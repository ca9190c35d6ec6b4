import ArgumentParser

/// `unplug NAME`: a virtual monitor removed, or an output's cable pulled.
package struct UnplugRequest: ControlArguments {
    @Argument(help: "The monitor's name.")
    package var name: String
    @Flag(help: "Unplugging the primary: keep X's rule (the primary stays on the dark output) instead of making the new main screen's output primary.")
    package var keepPrimary = false

    package init() {}

    package static let fields: [ControlField] = [.positional("name", .string), .option("keepPrimary", .flag)]

    package func validate() throws { try validateMonitorName(name) }
}
