internal import CXlib
import Glibc
import Multihead
import MultiheadX11

/// The core protocol's part of a server's state (`ServerFingerprint`), read over the XCB side of the kit's
/// connection in two round trips: every request of a round is sent before the first reply is awaited,
/// where one Xlib call each took about twenty. The second round reads what the first names (the root's
/// properties, the pixel at the far corner of the root the first measured). An X error comes back with its
/// reply: a property deleted between the rounds is left out, any other missing reply fails the read.
struct CoreStateRead {
    var windows: [UInt] = []
    var rootProperties: [UInt: ServerFingerprint.Property] = [:]
    var screenSize = Size.zero
    var focus: UInt = 0
    var focusRevert: Int32 = 0
    var pointerX: Int32 = 0, pointerY: Int32 = 0
    var pointerMask: UInt32 = 0
    var keysDown: [UInt8] = []
    var firstKeycode: Int32 = 0, keysymsPerKeycode: Int32 = 0
    var keysyms: [UInt] = []
    var keysPerModifier: Int32 = 0
    var modifierKeycodes: [UInt8] = []
    var pointerMapping: [UInt8] = []
    var rootCornerPixel: UInt = 0
    /// The settings `xhost` and `xset` change (XKB's controls are read apart, through Xlib).
    var accessControl = false
    var hosts: Set<ServerSettings.Host> = []
    var screenSaver: [Int32] = []
    var keyboard: [Int] = []
    var autoRepeats: [UInt8] = []
    var pointer: [Int32] = []
    var fontPath: [String] = []

    /// Reads it; nil when a reply other than a property's did not come (the caller checks the connection).
    /// `xcb_query_tree`, `xcb_list_properties`, `xcb_get_geometry`, `xcb_get_input_focus`, `xcb_query_pointer`,
    /// `xcb_query_keymap`, `xcb_get_keyboard_mapping`, `xcb_get_modifier_mapping`, `xcb_get_pointer_mapping`,
    /// `xcb_list_hosts`, `xcb_get_screen_saver`, `xcb_get_keyboard_control`, `xcb_get_pointer_control`,
    /// `xcb_get_font_path`; then `xcb_get_property` and `xcb_get_image`.
    static func read(_ x: OpaquePointer, root: UInt) -> CoreStateRead? {
        let w = xcb_window_t(truncatingIfNeeded: root)
        guard let setup = xcb_get_setup(x) else { return nil }
        let low = setup.pointee.min_keycode, high = setup.pointee.max_keycode
        let tree = xcb_query_tree(x, w), list = xcb_list_properties(x, w), geometry = xcb_get_geometry(x, w)
        let focus = xcb_get_input_focus(x), pointer = xcb_query_pointer(x, w), keymap = xcb_query_keymap(x)
        // The protocol keeps keycodes within 8…255, so the count fits a byte; clamped all the same.
        let mapping = xcb_get_keyboard_mapping(x, low, UInt8(clamping: max(0, Int(high) - Int(low) + 1)))
        let modifiers = xcb_get_modifier_mapping(x), buttons = xcb_get_pointer_mapping(x)
        let hosts = xcb_list_hosts(x), saver = xcb_get_screen_saver(x), keyboard = xcb_get_keyboard_control(x)
        let acceleration = xcb_get_pointer_control(x), fonts = xcb_get_font_path(x)
        var s = CoreStateRead()
        guard let t = reply({ xcb_query_tree_reply(x, tree, $0) }) else { return nil }
        s.windows = buffer(xcb_query_tree_children(t), xcb_query_tree_children_length(t)).map { UInt($0) }
        free(t)
        guard let l = reply({ xcb_list_properties_reply(x, list, $0) }) else { return nil }
        let atoms = buffer(xcb_list_properties_atoms(l), xcb_list_properties_atoms_length(l))
        free(l)
        guard let g = reply({ xcb_get_geometry_reply(x, geometry, $0) }) else { return nil }
        s.screenSize = Size(width: Double(g.pointee.width), height: Double(g.pointee.height))
        free(g)
        guard let f = reply({ xcb_get_input_focus_reply(x, focus, $0) }) else { return nil }
        (s.focus, s.focusRevert) = (UInt(f.pointee.focus), Int32(f.pointee.revert_to))
        free(f)
        guard let p = reply({ xcb_query_pointer_reply(x, pointer, $0) }) else { return nil }
        (s.pointerX, s.pointerY, s.pointerMask) = (Int32(p.pointee.root_x), Int32(p.pointee.root_y), UInt32(p.pointee.mask))
        free(p)
        guard let k = reply({ xcb_query_keymap_reply(x, keymap, $0) }) else { return nil }
        s.keysDown = withUnsafeBytes(of: k.pointee.keys) { Array($0.prefix(32)) }
        free(k)
        guard let m = reply({ xcb_get_keyboard_mapping_reply(x, mapping, $0) }) else { return nil }
        (s.firstKeycode, s.keysymsPerKeycode) = (Int32(low), Int32(m.pointee.keysyms_per_keycode))
        s.keysyms = buffer(xcb_get_keyboard_mapping_keysyms(m), xcb_get_keyboard_mapping_keysyms_length(m)).map { UInt($0) }
        free(m)
        guard let mm = reply({ xcb_get_modifier_mapping_reply(x, modifiers, $0) }) else { return nil }
        s.keysPerModifier = Int32(mm.pointee.keycodes_per_modifier)
        s.modifierKeycodes = buffer(xcb_get_modifier_mapping_keycodes(mm), xcb_get_modifier_mapping_keycodes_length(mm))
        free(mm)
        guard let b = reply({ xcb_get_pointer_mapping_reply(x, buttons, $0) }) else { return nil }
        s.pointerMapping = buffer(xcb_get_pointer_mapping_map(b), xcb_get_pointer_mapping_map_length(b))
        free(b)
        guard let h = reply({ xcb_list_hosts_reply(x, hosts, $0) }) else { return nil }
        s.accessControl = h.pointee.mode != 0
        var it = xcb_list_hosts_hosts_iterator(h)
        while it.rem > 0, let host = it.data {
            // A server-interpreted entry's address is its type, NUL, its value: as `Host` keeps it.
            s.hosts.insert(.init(family: Int32(host.pointee.family),
                                 address: buffer(xcb_host_address(host), xcb_host_address_length(host))))
            xcb_host_next(&it)
        }
        free(h)
        guard let v = reply({ xcb_get_screen_saver_reply(x, saver, $0) }) else { return nil }
        s.screenSaver = [Int32(v.pointee.timeout), Int32(v.pointee.interval), Int32(v.pointee.prefer_blanking),
                         Int32(v.pointee.allow_exposures)]
        free(v)
        guard let c = reply({ xcb_get_keyboard_control_reply(x, keyboard, $0) }) else { return nil }
        s.keyboard = [Int(c.pointee.key_click_percent), Int(c.pointee.bell_percent), Int(c.pointee.bell_pitch),
                      Int(c.pointee.bell_duration), Int(c.pointee.led_mask), Int(c.pointee.global_auto_repeat)]
        s.autoRepeats = withUnsafeBytes(of: c.pointee.auto_repeats) { Array($0.prefix(32)) }
        free(c)
        guard let a = reply({ xcb_get_pointer_control_reply(x, acceleration, $0) }) else { return nil }
        s.pointer = [Int32(a.pointee.acceleration_numerator), Int32(a.pointee.acceleration_denominator), Int32(a.pointee.threshold)]
        free(a)
        guard let fp = reply({ xcb_get_font_path_reply(x, fonts, $0) }) else { return nil }
        var paths = xcb_get_font_path_path_iterator(fp)
        while paths.rem > 0, let path = paths.data {
            s.fontPath.append(String(decoding: buffer(xcb_str_name(path), xcb_str_name_length(path)).map { UInt8(bitPattern: $0) }, as: UTF8.self))
            xcb_str_next(&paths)
        }
        free(fp)
        return s.readSecondRound(x, w, atoms: atoms) ? s : nil
    }

    /// The root's properties and its far corner's pixel: what the first round named and measured.
    private mutating func readSecondRound(_ x: OpaquePointer, _ w: xcb_window_t, atoms: [xcb_atom_t]) -> Bool {
        let values = atoms.map { ($0, xcb_get_property(x, 0, w, $0, xcb_atom_t(XCB_GET_PROPERTY_TYPE_ANY.rawValue), 0, 1 << 24)) }
        // Coordinates are 16-bit signed: a root larger than that (none the protocol can make) is read at its
        // last addressable pixel.
        let (width, height) = (Int(screenSize.width), Int(screenSize.height))
        let corner = width >= 1 && height >= 1
            ? xcb_get_image(x, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), w, Int16(clamping: width - 1), Int16(clamping: height - 1),
                            1, 1, UInt32.max) : nil
        for (atom, cookie) in values {
            // Deleted since the list: not there, as a later read would say.
            guard let r = reply({ xcb_get_property_reply(x, cookie, $0) }) else { continue }
            defer { free(r) }
            guard r.pointee.type != 0 else { continue }
            rootProperties[UInt(atom)] = .init(type: UInt(r.pointee.type), format: Int32(r.pointee.format),
                                               xcbData: xcb_get_property_value(r).map(UnsafeRawPointer.init),
                                               count: Int(xcb_get_property_value_length(r)))
        }
        guard let corner else { return true }
        guard let image = reply({ xcb_get_image_reply(x, corner, $0) }) else { return false }
        defer { free(image) }
        // The pixel's bytes, least significant first (this machine's order, and so a local server's), to its depth.
        let bytes = buffer(xcb_get_image_data(image), xcb_get_image_data_length(image)).prefix(4)
        let value = bytes.reversed().reduce(UInt(0)) { $0 << 8 | UInt($1) }
        let depth = Int(image.pointee.depth)
        rootCornerPixel = depth > 0 && depth < 32 ? value & ((1 << depth) - 1) : value
        return true
    }
}

/// Awaits one reply; an X error in its place (XCB hands it back with the reply, never to Xlib's handler) is
/// freed and read as no reply.
private func reply<R>(_ get: (UnsafeMutablePointer<UnsafeMutablePointer<xcb_generic_error_t>?>) -> UnsafeMutablePointer<R>?)
    -> UnsafeMutablePointer<R>? {
    var error: UnsafeMutablePointer<xcb_generic_error_t>?
    let r = get(&error)
    if let error { free(error) }
    return r
}

/// `count` elements at `p` as an array (empty for none).
private func buffer<T>(_ p: UnsafeMutablePointer<T>?, _ count: Int32) -> [T] {
    guard let p, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: p, count: Int(count)))
}
