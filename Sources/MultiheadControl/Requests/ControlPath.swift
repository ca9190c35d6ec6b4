import ArgumentParser

/// A path a request names (`--edid`, `-o`): whole when the socket's server opens it, as the client's
/// relative path means the client's folder (`ControlRequest` makes it whole with the request's `directory`).
package struct ControlPath: ExpressibleByArgument, ControlFieldValue, Sendable {
    package var path: String

    package init(_ path: String) { self.path = path }

    package init?(argument: String) { path = argument }

    package static var fieldType: ControlFieldType { .path }
    package var fieldValue: JSONText? { .string(path) }
}

