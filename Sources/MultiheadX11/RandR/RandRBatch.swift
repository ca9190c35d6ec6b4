internal import CXlib
import Glibc
import Multihead

/// RandR reads over the XCB side of the Xlib connection (`XGetXCBConnection`), pipelined: every request of
/// a batch is sent before the first reply is awaited, so a batch costs one round trip however many outputs
/// and CRTCs it asks about. Each reply is copied into Swift values, or found byte for byte as the last read's
/// (`ReplyMemo`), and freed in the scope that awaited it.
/// X errors come back with their reply (never through Xlib's error handler): an object that vanished
/// between two batches is skipped, and the RandR event that announced its removal re-syncs.
@MainActor
package enum RandRBatch {
    /// Round trips and requests made so far over one connection (`randrTally`): what tests count.
    package struct Tally: Equatable, Sendable {
        package var roundTrips = 0
        package var requests = 0
        package static func - (a: Tally, b: Tally) -> Tally {
            Tally(roundTrips: a.roundTrips - b.roundTrips, requests: a.requests - b.requests)
        }
    }

    static func count(_ c: any ScreenSource, _ requests: Int, roundTrip: Bool = true) {
        guard requests > 0 else { return }
        if roundTrip { c.randrTally.roundTrips += 1 }
        c.randrTally.requests += requests
    }
    /// What the screen resources say: the mode table, every output and every CRTC.
    package struct Resources: Equatable {
        /// The configuration timestamp the server gave with them: a change (`RRSetCrtcConfig`) carries it.
        package var timestamp: UInt32 = 0
        package var modes: IDTable<RandR.ModeInfo> = [:]
        package var outputs: IDTable<RandR.OutputInfo> = [:]
        package var crtcs: IDTable<RandR.CrtcInfo> = [:]
    }

    /// The first half of a resources read: the ids and the mode table, from one reply.
    package struct ResourceList {
        /// When the server's configuration (outputs, their modes, connections) last changed.
        package var timestamp: UInt32
        /// When a client last set a CRTC (`RRSetCrtcConfig`, even to what it was).
        package var setTimestamp: UInt32
        package var outputs: [UInt32]
        package var crtcs: [UInt32]
        package var modes: IDTable<RandR.ModeInfo>

        /// The configuration serial: the later of the two timestamps, which every change of an output or a
        /// CRTC moves (server milliseconds; the kit moves it for its virtual monitors too,
        /// `ServerControl.stampConfiguration`).
        package var serial: UInt32 { max(timestamp, setTimestamp) }

        /// Whether `other` lists the same objects and modes with the same configuration timestamp: then
        /// only a CRTC set again (or set by a change RandR also announces) can differ.
        func hasSameObjects(as other: ResourceList) -> Bool {
            timestamp == other.timestamp && outputs == other.outputs && crtcs == other.crtcs && modes == other.modes
        }
    }

    /// The active monitors and, when asked, the resources' ids and mode table and the root's resource
    /// database (`RESOURCE_MANAGER`, for `Xft.dpi`), in one round trip.
    /// `xcb_randr_get_monitors`, `xcb_randr_get_screen_resources_current`, `xcb_get_property`.
    static func monitors(_ c: any ScreenSource, withResources: Bool, withResourceDatabase: Bool = false)
        -> (monitors: [RandR.MonitorInfo]?, list: ResourceList?, database: String?) {
        var memo = ReplyMemo()
        let (monitors, list, database, _) = monitorsAndAtom(c, withResources: withResources, withResourceDatabase: withResourceDatabase,
                                                            memo: &memo)
        return (monitors, list, database)
    }

    /// `monitors`, and the `EDID` atom (interned, in the same round trip) when `withEDIDAtom`; the monitors
    /// and the resources' list as `memo` has them when their replies did not change.
    /// `xcb_intern_atom` too.
    static func monitorsAndAtom(_ c: any ScreenSource, withResources: Bool, withResourceDatabase: Bool = false,
                                withEDIDAtom: Bool = false, memo: inout ReplyMemo)
        -> (monitors: [RandR.MonitorInfo]?, list: ResourceList?, database: String?, edidAtom: UInt?) {
        guard let x = c.xcbConnection else { return (nil, nil, nil, nil) }
        let root = xcb_window_t(truncatingIfNeeded: c.root)
        let mc = xcb_randr_get_monitors(x, root, 1)
        let rc = withResources ? xcb_randr_get_screen_resources_current(x, root) : nil
        let pc = withResourceDatabase
            ? xcb_get_property(x, 0, root, xcb_atom_t(XA_RESOURCE_MANAGER), xcb_atom_t(XA_STRING), 0, 1 << 18) : nil
        let ic = withEDIDAtom ? xcb_intern_atom(x, 0, 4, "EDID") : nil
        count(c, 1 + (withResources ? 1 : 0) + (withResourceDatabase ? 1 : 0) + (withEDIDAtom ? 1 : 0))
        let monitors = awaitReply { xcb_randr_get_monitors_reply(x, mc, $0) }.flatMap { r in
            defer { free(r) }
            memo.monitors.update(0, r, parse: monitorInfos)
            return memo.monitors.table[0]
        }
        let list = rc.flatMap { cookie in awaitReply { xcb_randr_get_screen_resources_current_reply(x, cookie, $0) } }.flatMap { r in
            defer { free(r) }
            memo.resources.update(0, r, parse: resourceList)
            return memo.resources.table[0]
        }
        let database = pc.flatMap { cookie in awaitReply { xcb_get_property_reply(x, cookie, $0) } }.map { r in
            defer { free(r) }
            let n = Int(xcb_get_property_value_length(r))
            guard r.pointee.format == 8, n > 0, let p = xcb_get_property_value(r) else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: p, count: n), as: UTF8.self)
        }
        let edidAtom = ic.flatMap { cookie in awaitReply { xcb_intern_atom_reply(x, cookie, $0) } }.map { r in
            defer { free(r) }
            return UInt(r.pointee.atom)
        }
        return (monitors, list, database ?? (withResourceDatabase ? "" : nil), edidAtom)
    }

    /// Every output's and CRTC's info (with each output's `EDID` property when `edidAtom` is not 0), and
    /// the names of `atoms`, in one round trip; each output and CRTC as `memo` has it when its replies did
    /// not change (the tables themselves when none did).
    /// `xcb_randr_get_output_info`, `xcb_randr_get_output_property`, `xcb_randr_get_crtc_info`,
    /// `xcb_get_atom_name`.
    static func details(_ c: any ScreenSource, _ list: ResourceList?, atoms: [UInt], edidAtom: UInt = 0,
                        memo: inout ReplyMemo) -> (resources: Resources?, names: IDTable<String>) {
        guard let x = c.xcbConnection else { return (nil, [:]) }
        let t = list?.timestamp ?? 0
        let oc = (list?.outputs ?? []).map { ($0, xcb_randr_get_output_info(x, $0, t)) }
        // 256 bytes: the base block and one extension, as the kit reads only the base block.
        let ec = edidAtom == 0 ? [] : (list?.outputs ?? []).map {
            ($0, xcb_randr_get_output_property(x, $0, xcb_atom_t(truncatingIfNeeded: edidAtom), xcb_atom_t(XA_INTEGER), 0, 64, 0, 0))
        }
        let cc = (list?.crtcs ?? []).map { ($0, xcb_randr_get_crtc_info(x, $0, t)) }
        let ac = atoms.map { ($0, xcb_get_atom_name(x, xcb_atom_t(truncatingIfNeeded: $0))) }
        count(c, oc.count + ec.count + cc.count + ac.count)
        for (i, (id, cookie)) in oc.enumerated() {
            let output = UInt(id)
            // The output's EDID beside its info, though asked after every output's (XCB keeps the replies
            // awaited out of turn): measured in lock step with C, 1.02–1.05× where awaiting every info
            // first read 1.06–1.07×. A changed EDID makes the output's value again.
            let edidChanged = i < ec.count ? updateEDID(x, ec[i].1, output, &memo) : memo.edids.remove(output)
            guard let r = awaitReply({ xcb_randr_get_output_info_reply(x, cookie, $0) }) else {
                memo.outputs.remove(output)
                continue
            }
            defer { free(r) }
            let edid = memo.edids.table[output] ?? nil
            memo.outputs.update(output, r, force: edidChanged) { r in
                RandR.OutputInfo(
                    id: output, name: String(decoding: UnsafeBufferPointer(start: xcb_randr_get_output_info_name(r),
                                                                           count: Int(xcb_randr_get_output_info_name_length(r))), as: UTF8.self),
                    crtc: UInt(r.pointee.crtc), connected: r.pointee.connection == UInt8(XCB_RANDR_CONNECTION_CONNECTED.rawValue),
                    modes: ids(xcb_randr_get_output_info_modes(r), xcb_randr_get_output_info_modes_length(r)),
                    preferredCount: Int(r.pointee.num_preferred),
                    possibleCrtcs: ids(xcb_randr_get_output_info_crtcs(r), xcb_randr_get_output_info_crtcs_length(r)), edid: edid)
            }
        }
        for (id, cookie) in cc {
            guard let r = awaitReply({ xcb_randr_get_crtc_info_reply(x, cookie, $0) }) else {
                memo.crtcs.remove(UInt(id))
                continue
            }
            defer { free(r) }
            memo.crtcs.update(UInt(id), r) { r in
                let p = r.pointee
                return RandR.CrtcInfo(
                    x: Int32(p.x), y: Int32(p.y), width: UInt32(p.width), height: UInt32(p.height), mode: UInt(p.mode),
                    rotation: p.rotation, rotations: p.rotations, outputs: ids(xcb_randr_get_crtc_info_outputs(r), xcb_randr_get_crtc_info_outputs_length(r)))
            }
        }
        var names: IDTable<String> = [:]
        for (atom, cookie) in ac {
            guard let r = awaitReply({ xcb_get_atom_name_reply(x, cookie, $0) }) else { continue }
            defer { free(r) }
            names[atom] = String(decoding: UnsafeRawBufferPointer(start: xcb_get_atom_name_name(r),
                                                                  count: Int(xcb_get_atom_name_name_length(r))), as: UTF8.self)
        }
        guard let list else { return (nil, names) }
        memo.outputs.keep(only: list.outputs)
        memo.edids.keep(only: ec.isEmpty ? [] : list.outputs)
        memo.crtcs.keep(only: list.crtcs)
        return (Resources(timestamp: t, modes: list.modes, outputs: memo.outputs.table, crtcs: memo.crtcs.table), names)
    }

    /// Brings an output's `EDID` property (nil: none, or not bytes) in `memo` up to date with its reply.
    /// Whether it changed.
    private static func updateEDID(_ x: OpaquePointer, _ cookie: xcb_randr_get_output_property_cookie_t, _ output: UInt,
                                   _ memo: inout ReplyMemo) -> Bool {
        guard let r = awaitReply({ xcb_randr_get_output_property_reply(x, cookie, $0) }) else { return memo.edids.remove(output) }
        defer { free(r) }
        return memo.edids.update(output, r) { r in
            let n = Int(xcb_randr_get_output_property_data_length(r))
            guard r.pointee.format == 8, n > 0, let p = xcb_randr_get_output_property_data(r) else { return nil }
            return Array(UnsafeBufferPointer(start: p, count: n))
        }
    }

    /// The brightness of each CRTC's gamma ramp (the top of the red ramp; nil: no ramp), in one round trip.
    /// `xcb_randr_get_crtc_gamma`.
    static func brightness(_ c: any ScreenSource, crtcs: [UInt]) -> IDTable<Double?> {
        guard let x = c.xcbConnection else { return [:] }
        let cookies = crtcs.map { ($0, xcb_randr_get_crtc_gamma(x, xcb_randr_crtc_t(truncatingIfNeeded: $0))) }
        count(c, cookies.count)
        var result: IDTable<Double?> = [:]
        for (crtc, cookie) in cookies {
            guard let r = awaitReply({ xcb_randr_get_crtc_gamma_reply(x, cookie, $0) }) else { continue }
            defer { free(r) }
            let size = Int(r.pointee.size)
            guard size > 1, Int(xcb_randr_get_crtc_gamma_red_length(r)) >= size,
                  let red = xcb_randr_get_crtc_gamma_red(r) else { result[crtc] = .some(nil); continue }
            result[crtc] = RandR.brightness(topOfRamp: red[size - 1])
        }
        return result
    }

    /// Everything RandR says now, for changing outputs: the monitors and their names, the resources, the
    /// primary output and the screen size range, in two round trips. Nil when a reply did not come (the
    /// connection is lost, or RandR is missing).
    /// `xcb_randr_get_output_primary`, `xcb_randr_get_screen_size_range`, and `monitors` and `details`.
    static func state(_ c: any ScreenSource) -> RandRState? {
        guard let x = c.xcbConnection else { return nil }
        let root = xcb_window_t(truncatingIfNeeded: c.root)
        // Sent before the monitors' requests, awaited after them: the same round trip.
        let pc = xcb_randr_get_output_primary(x, root)
        let sc = xcb_randr_get_screen_size_range(x, root)
        count(c, 2, roundTrip: false)
        let (monitors, list, _) = Self.monitors(c, withResources: true)
        let primary = awaitReply { xcb_randr_get_output_primary_reply(x, pc, $0) }.map { r in
            defer { free(r) }
            return UInt(r.pointee.output)
        }
        let range = awaitReply { xcb_randr_get_screen_size_range_reply(x, sc, $0) }.map { r in
            defer { free(r) }
            return Size(width: Double(r.pointee.max_width), height: Double(r.pointee.max_height))
        }
        guard let monitors, let list else { return nil }
        var memo = ReplyMemo()
        let (resources, names) = details(c, list, atoms: monitors.map(\.nameAtom).uniqued(), memo: &memo)
        guard let resources else { return nil }
        return RandRState(monitors: monitors, names: names, resources: resources, primaryOutput: primary ?? 0,
                          largestScreen: range ?? .zero)
    }

    /// The number of entries in a CRTC's gamma ramp (0: none). `xcb_randr_get_crtc_gamma_size`.
    static func gammaSize(_ c: any ScreenSource, crtc: UInt) -> Int32 {
        guard let x = c.xcbConnection else { return 0 }
        let cookie = xcb_randr_get_crtc_gamma_size(x, xcb_randr_crtc_t(truncatingIfNeeded: crtc))
        count(c, 1)
        return awaitReply { xcb_randr_get_crtc_gamma_size_reply(x, cookie, $0) }.map { r in
            defer { free(r) }
            return Int32(r.pointee.size)
        } ?? 0
    }

    /// Makes the server probe its outputs, as `xrandr` does (the dummy driver fills a connected output's
    /// mode list then). `xcb_randr_get_screen_resources`.
    package static func probe(_ c: any ScreenSource) {
        guard let x = c.xcbConnection else { return }
        let cookie = xcb_randr_get_screen_resources(x, xcb_window_t(truncatingIfNeeded: c.root))
        count(c, 1)
        if let r = awaitReply({ xcb_randr_get_screen_resources_reply(x, cookie, $0) }) { free(r) }
    }

    /// Awaits one reply; an X error in its place is freed and read as no reply.
    static func awaitReply<R>(_ get: (UnsafeMutablePointer<UnsafeMutablePointer<xcb_generic_error_t>?>) -> UnsafeMutablePointer<R>?) -> UnsafeMutablePointer<R>? {
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let reply = get(&error)
        if let error { free(error) }
        return reply
    }

    private static func ids(_ p: UnsafeMutablePointer<UInt32>?, _ n: Int32) -> [UInt] {
        guard let p, n > 0 else { return [] }
        return UnsafeBufferPointer(start: p, count: Int(n)).map { UInt($0) }
    }

    private static func monitorInfos(_ r: UnsafeMutablePointer<xcb_randr_get_monitors_reply_t>) -> [RandR.MonitorInfo] {
        var result: [RandR.MonitorInfo] = []
        var it = xcb_randr_get_monitors_monitors_iterator(r)
        while it.rem > 0, let m = it.data {
            let p = m.pointee
            result.append(RandR.MonitorInfo(
                nameAtom: UInt(p.name), primary: p.primary != 0,
                frame: Rect(x: Double(p.x), y: Double(p.y), width: Double(p.width), height: Double(p.height)),
                physicalSize: Size(width: Double(p.width_in_millimeters), height: Double(p.height_in_millimeters)),
                outputs: ids(xcb_randr_monitor_info_outputs(m), xcb_randr_monitor_info_outputs_length(m))))
            xcb_randr_monitor_info_next(&it)
        }
        return result
    }

    private static func resourceList(_ r: UnsafeMutablePointer<xcb_randr_get_screen_resources_current_reply_t>) -> ResourceList {
        var modes: IDTable<RandR.ModeInfo> = [:]
        let count = Int(xcb_randr_get_screen_resources_current_modes_length(r))
        modes.reserveCapacity(count)
        if count > 0, let table = xcb_randr_get_screen_resources_current_modes(r) {
            // The names are packed one after another, in mode-table order.
            var name = xcb_randr_get_screen_resources_current_names(r)
            for m in UnsafeBufferPointer(start: table, count: count) {
                let len = Int(m.name_len)
                let text = name.map { String(decoding: UnsafeBufferPointer(start: $0, count: len), as: UTF8.self) }
                name = name.map { $0 + len }
                modes[UInt(m.id)] = RandR.ModeInfo(mode: RandR.screenMode(m), name: text ?? "\(m.width)x\(m.height)")
            }
        }
        let outputs = UnsafeBufferPointer(start: xcb_randr_get_screen_resources_current_outputs(r),
                                          count: Int(xcb_randr_get_screen_resources_current_outputs_length(r)))
        let crtcs = UnsafeBufferPointer(start: xcb_randr_get_screen_resources_current_crtcs(r),
                                        count: Int(xcb_randr_get_screen_resources_current_crtcs_length(r)))
        return ResourceList(timestamp: r.pointee.config_timestamp, setTimestamp: r.pointee.timestamp, outputs: Array(outputs), crtcs: Array(crtcs), modes: modes)
    }
}
