internal import CCairo

/// cairo's functions, loaded on first use (`dlopen`), so that a process that draws nothing never loads
/// cairo and the libraries behind it (see the CCairo shim). `dlopen`, `dlsym`.
// The table's size comes from the shim: after a function is added there, this file must be compiled again
// (an incremental build may keep it, and the new field is then read past the end of the table).
let cairo: mh_cairo_table = {
    let table = UnsafeMutablePointer<mh_cairo_table>.allocate(capacity: 1)
    defer { table.deallocate() }
    if let error = mh_cairo_load(table) {
        // What the dynamic linker would have said at start had cairo been linked: a broken installation.
        fatalError("Multihead cannot load libcairo.so.2 (\(String(cString: error))); install libcairo2 (Scripts/setup does)")
    }
    return table.pointee
}()
