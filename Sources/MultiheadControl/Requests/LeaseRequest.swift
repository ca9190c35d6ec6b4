import ArgumentParser

/// `lease`: the server, fresh, for one test; with `monitors`, in that layout (else the one it started with).
/// The socket's alone (`multihead server --monitors` gives the first layout).
package struct LeaseRequest: ControlArguments {
    @Option(help: "The monitors' sizes, left to right, such as 1920x1080 (MonitorLayout's rule).")
    package var monitors: [String] = []
    @Flag(help: "Run openbox on the lease's server (X kinds; the compositor is its own window manager).")
    package var wm = false

    package init() {}

    package static let fields: [ControlField] = [.option("monitors", .strings), .option("wm", .flag)]
}
