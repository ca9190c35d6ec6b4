/// A path a request names (`--edid`, `-o`): whole when the socket's server opens it, as the client's
/// relative path means the client's folder (`RequestDeclaration.decode` makes it whole with the request's
/// `directory`).
package struct ControlPath: RequestFieldValue {
    /// The path as given (whole once the socket decoded it).
    package var path: String

    /// A path as given.
    package init(_ path: String) { self.path = path }

    package static var fieldType: ControlFieldType { .path }

    package init(word: String, for option: String) { path = word }

    package var json: JSONText { .string(path) }
}
