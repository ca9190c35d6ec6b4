/// A path a request names (`--edid`, `-o`): whole when the socket's server opens it, as the client's
/// relative path means the client's folder (`RequestDeclaration.decode` makes it whole with the request's
/// `directory`).
package struct ControlPath: RequestFieldValue {
    package var path: String

    package init(_ path: String) { self.path = path }

    package static var fieldType: ControlFieldType { .path }

    package init(word: String, for option: String) { path = word }

    package var json: JSONText { .string(path) }
}
