#if canImport(Glibc)
import Glibc
#endif

/// The names in a folder, read with `readdir`. A `dirent` is a record of its own length: its name is read
/// where it lies, up to its terminating zero, never by copying the struct (whose 256-byte name field runs
/// past the end of a short last record, and of the buffer that holds it). `opendir`, `readdir`, `closedir`.
package func directoryEntries(_ path: String, where keep: (String) -> Bool = { _ in true }) -> [String]? {
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeMutablePointer(to: &entry.pointee.d_name) {
            $0.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) }
        }
        if keep(name) { names.append(name) }
    }
    return names
}
