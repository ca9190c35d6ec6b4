/// `unplug NAME`: a virtual monitor removed, or an output's cable pulled.
package struct UnplugRequest: ControlRequestValue {
    package var name = ""
    package var keepPrimary = false

    package init() {}

    package static var name: ControlRequest.Name { .unplug }

    package static let declaration = RequestDeclaration<UnplugRequest>([
        .positional(\.name, "name", help: "The monitor's name."),
        .flag(\.keepPrimary, "keepPrimary", help: "Unplugging the primary: keep X's rule (the primary stays on the dark output) instead of making the new main screen's output primary."),
    ])

    package func validate() throws { try validateMonitorName(name) }
}
