internal import CCairo

/// cairo's functions, loaded on first use (`dlopen`), so that a process that draws nothing never loads
/// cairo and the libraries behind it (see the CCairo shim). `dlopen`, `dlsym`.
let cairo: mh_cairo_table = {
    let table = UnsafeMutablePointer<mh_cairo_table>.allocate(capacity: 1)
    defer { table.deallocate() }
    if let error = mh_cairo_load(table) {
        // What the dynamic linker would have said at start had cairo been linked: a broken installation.
        fatalError("Multihead cannot load libcairo.so.2 (\(String(cString: error))); install libcairo2 (Scripts/setup does)")
    }
    return table.pointee
}()
