/// `lease`: the server, fresh, for one test; with `monitors`, in that layout (else the one it started with).
/// The socket's alone (`multihead server --monitors` gives the first layout).
package struct LeaseRequest: ControlRequestValue {
    package var monitors: [String] = []
    package var wm = false

    package init() {}

    package static var name: ControlRequest.Name { .lease }

    package static let declaration = RequestDeclaration<LeaseRequest>([
        .list(\.monitors, "monitors", help: "The monitors' sizes, left to right, such as 1920x1080 (MonitorLayout's rule)."),
        .flag(\.wm, "wm", help: "Run openbox on the lease's server (X kinds; the compositor is its own window manager)."),
    ])

    /// Any list and either value: the layout's sizes are `MonitorLayout`'s to check, on the server's kind.
    package func validate() {}
}
