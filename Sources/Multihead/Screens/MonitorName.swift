/// The names RandR can take for a monitor: the one rule for the server side (`ServerControl`) and the
/// protocol's checks before anything connects, in the model since neither side owns it.
package enum MonitorName {
    /// Why `name` cannot name a monitor (not empty, at most 255 bytes, no NUL); nil when it can.
    package static func fault(in name: String) -> String? {
        if name.isEmpty { return "a monitor needs a name" }
        if name.utf8.count > 255 { return "a monitor name has at most 255 bytes, not \(name.utf8.count)" }
        if name.contains("\0") { return "a monitor name cannot hold NUL" }
        return nil
    }
}
