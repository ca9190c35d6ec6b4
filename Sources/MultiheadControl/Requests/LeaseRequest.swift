/// `lease`: the server, fresh, for one test; with `monitors`, in that layout (else the one it started with).
/// The socket's alone (`multihead server --monitors` gives the first layout).
package struct LeaseRequest: ControlRequestValue {
    /// The layout's sizes as given (nil: the layout the server started with); `MonitorLayout` reads them
    /// on the server's kind, an empty list or entry refused with its reason.
    package var monitors: [String]?
    /// Openbox on the lease's server, or not (nil: as `multihead server --wm` said).
    package var wm: Bool?

    package init() {}

    package static var name: ControlRequest.Name { .lease }

    package static let declaration = RequestDeclaration<LeaseRequest>([
        .list(\.monitors, "monitors", help: "The monitors' sizes, left to right, such as 1920x1080 (MonitorLayout's rule)."),
        .option(\.wm, "wm", help: "Run openbox on the lease's server, true or false (X kinds; the compositor is its own window manager; default: as the server's --wm)."),
    ])

    /// Any list and either value: the layout's sizes are `MonitorLayout`'s to check, on the server's kind.
    package func validate() {}
}
