/// A value made of declared fields: a request (`ControlRequestValue`), or a group of options a request
/// holds (`MonitorIdentityOptions`). Its fields are its properties, with their Swift types and defaults;
/// `declaration` says once how each is named, helped and given; `validate()` checks the whole value.
package protocol DeclaredFields: Sendable, Equatable {
    /// The value with every property at its default: what parsing and decoding fill in (a positional
    /// field's placeholder is never seen: a value without it is refused).
    init()
    /// Its fields, in the command line's order.
    static var declaration: RequestDeclaration<Self> { get }
    /// Checks what the fields' own types cannot (ranges, one field with another); a mistake's reason is a
    /// usage error (64). Run once, where the value is made (`RequestDeclaration.parse`, `.decode`).
    func validate() throws
}

/// A request of the control socket, whose value the command line builds, the client sends, the socket
/// decodes and the server performs.
package protocol ControlRequestValue: DeclaredFields {
    /// The request's name on the socket.
    static var name: ControlRequest.Name { get }
}
