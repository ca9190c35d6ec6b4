internal import CXlib
import Multihead

/// Reads the X server's monitors into a screen snapshot: RandR 1.5 monitors with the modes of their
/// outputs, or one screen per X screen without RandR 1.5.
///
/// The screen resources (modes, outputs, CRTCs) and each CRTC's gamma are kept between reads: RandR's
/// events say when they changed (`invalidate`), and a bare root `ConfigureNotify` (Xvfb's virtual
/// monitors) costs one `GetMonitors`. A full read is two round trips whatever the number of outputs
/// (`RandRBatch`), plus one for the gamma of CRTCs not read before.
@MainActor
struct MonitorReader {
    let connection: any ScreenSource
    let randr15: Bool
    /// What RandR said at the last read, in the one state type the configurator and the server control
    /// read too: the monitors, every monitor name learnt so far (atoms live as long as the server) and the
    /// resources. The primary output and the size range are not read here (0 and zero).
    private(set) var state = RandRState(monitors: [], names: [:], resources: RandRBatch.Resources(), primaryOutput: 0, largestScreen: .zero)
    /// Whether `state.resources` is as the server has it: false once RandR said they changed.
    private var resourcesCurrent = false
    /// The resources as last read; nil once RandR said they changed.
    var resources: RandRBatch.Resources? { resourcesCurrent ? state.resources : nil }
    /// Each CRTC's brightness as its gamma ramp said (nil inside: no ramp); dropped when RandR says the CRTC
    /// changed. Setting a gamma ramp sends no event, so another client's ramp shows after its CRTC's next change.
    private var gamma: IDTable<Double?> = [:]
    /// How each screen's scale is chosen: the factors given, else `Xft.dpi` (read with the monitors), else
    /// the monitor's density.
    private(set) var scalePolicy: ScreenScalePolicy
    /// Whether the next read asks for the resource database too (at first, and after xrdb changed it).
    var scaleNeedsRead = true
    /// The `EDID` atom, interned with the first read: each output's EDID is read with the resources.
    private var edidAtom: UInt?
    /// The screens last described, with what they were described from.
    private var described: Described?
    /// The last read's replies beside their values: a reply that did not change is not parsed again.
    private(set) var memo = RandRBatch.ReplyMemo()
    /// The resources' list `state.resources` was read from: a later list with the same objects and
    /// configuration timestamp needs no new details unless RandR said something changed (`invalidate`).
    private var listRead: RandRBatch.ResourceList?
    /// The configuration serial of the last read (`ResourceList.serial`; 0 before one, or without RandR
    /// 1.5's monitors): its list rides with every read's `GetMonitors`, so it is never older than the
    /// screens read with it.
    private(set) var configurationSerial: UInt32 = 0

    /// Screens and their sources: a read that finds the same monitors, resources, gamma and scale policy
    /// (a re-read of a server whose state did not change, the common case) returns the same screens
    /// without describing them again, which was the most of a full re-read's own work (the modes merged,
    /// the EDIDs parsed, each description built and scaled). Compared by value, whatever read them.
    private struct Described {
        var monitors: [RandR.MonitorInfo]
        var resources: RandRBatch.Resources
        var gamma: IDTable<Double?>
        var policy: ScreenScalePolicy
        var screens: [ScreenDescription]
    }

    init(connection: any ScreenSource, randr15: Bool, scaleFactors: [String: Double] = [:]) {
        self.connection = connection
        self.randr15 = randr15
        scalePolicy = ScreenScalePolicy(factors: scaleFactors)
    }

    /// Forgets the cached resources (and the gamma of `crtc`, or of every CRTC when nil) after a RandR event.
    mutating func invalidate(crtc: UInt? = nil, gamma all: Bool = false) {
        resourcesCurrent = false
        if all { gamma = [:] } else if let crtc { gamma[crtc] = nil }
    }

    /// Records a brightness this connection set, so that the next read need not ask.
    mutating func recordBrightness(_ value: Double, crtc: UInt) { gamma[crtc] = .some(value) }

    /// The snapshot now; never empty (a stand-in the size of the root window when no monitor is active).
    /// `refreshResources` re-reads the resources even when the cache is current.
    mutating func readScreens(refreshResources: Bool = false) throws -> [ScreenDescription] {
        let c = connection
        let screens: [ScreenDescription] = try c.bounded {
            try c.checkAlive()
            return randr15 ? readMonitors(refresh: refreshResources) : scaled(c.xScreens())
        }
        // A read that failed on the XCB side (the server went, or the watchdog cut it) is a lost connection.
        try c.checkAlive()
        // No monitor active: a stand-in the size of the root window, which the model never announces.
        return ScreenDescription.nonEmpty(screens, standInSize: c.rootSize())
    }

    /// Each screen's own scale, chosen again with every snapshot: a new mode can change a panel's density.
    private func scaled(_ screens: [ScreenDescription]) -> [ScreenDescription] {
        let policy = scalePolicy
        return screens.map { d in
            var scaled = d
            scaled.scale = policy.scale(for: d)
            return scaled
        }
    }

    private mutating func readMonitors(refresh: Bool) -> [ScreenDescription] {
        let c = connection
        // The resources' list every time (a request more in the same round trip): its timestamps are the
        // configuration serial, and a list with other objects than the cache's makes the cache stale.
        var (fresh, list, database, atom) = RandRBatch.monitorsAndAtom(c, withResources: true,
                                                                        withResourceDatabase: scaleNeedsRead, withEDIDAtom: edidAtom == nil,
                                                                        memo: &memo)
        if let l = list {
            configurationSerial = l.serial
            if !refresh, resources != nil, let read = listRead, l.hasSameObjects(as: read) { list = nil }
        }
        if let atom { edidAtom = atom }
        if let database {
            scalePolicy.desktopScale = XResources.desktopScale(fromResources: database)
            scaleNeedsRead = false
        }
        guard let found = fresh else { return [] }
        state.monitors = found
        if list == nil, let res = resources, found.contains(where: { $0.outputs.contains { res.outputs[$0] == nil } }) {
            // A monitor names an output the cache does not know: the cache is stale after all.
            (_, list, _) = RandRBatch.monitors(c, withResources: true)
        }
        let unnamed = found.map(\.nameAtom).filter { state.names[$0] == nil }.uniqued()
        if list != nil || !unnamed.isEmpty {
            let (res, names) = RandRBatch.details(c, list, atoms: unnamed, edidAtom: edidAtom ?? 0, memo: &memo)
            state.names.merge(names)
            if let res {
                state.resources = res
                resourcesCurrent = true
                listRead = list
            }
        }
        let res = resources ?? RandRBatch.Resources()
        // The same monitors, resources and gamma as the screens last described: the same active CRTCs,
        // whose gamma that read had, so none to read (a CRTC's gamma forgotten since: described again).
        if let d = described, d.monitors == found, d.gamma == gamma, d.policy == scalePolicy, d.resources == res {
            return d.screens
        }
        // The gamma of every CRTC that drives a monitor and was not read since it last changed.
        // A region of an output has no brightness of its own (the ramp is the whole output's): none read.
        let active = found.flatMap { m -> [UInt] in
            let outputs = m.outputs.compactMap { res.outputs[$0] }
            return Self.isRegion(m, of: outputs, res.modes, res.crtcs) ? [] : outputs.map(\.crtc)
        }.filter { $0 != 0 }
        let unread = active.filter { gamma[$0] == nil }.uniqued()
        if !unread.isEmpty { gamma.merge(RandRBatch.brightness(c, crtcs: unread)) }
        var result: [ScreenDescription] = []
        var named = true
        for m in found {
            guard let name = state.name(of: m) else { named = false; continue }
            let outputs = m.outputs.compactMap { res.outputs[$0] }
            // A monitor whose outputs all lost their CRTC is off: not an active monitor.
            if !m.outputs.isEmpty && !outputs.contains(where: { $0.crtc != 0 }) { continue }
            result.append(describe(m, name: name, outputs: outputs, res.modes, res.crtcs))
        }
        let screens = scaled(result)
        // Kept only when every monitor had its name: names only grow, so equal monitors have them again.
        described = named ? Described(monitors: found, resources: res, gamma: gamma, policy: scalePolicy, screens: screens) : nil
        return screens
    }

    private func describe(_ m: RandR.MonitorInfo, name: String, outputs: [RandR.OutputInfo],
                          _ modeTable: IDTable<RandR.ModeInfo>, _ crtcs: IDTable<RandR.CrtcInfo>) -> ScreenDescription {
        guard !outputs.isEmpty, !Self.isRegion(m, of: outputs, modeTable, crtcs) else {
            // A virtual monitor, or one laid over part of an output (the kit's first monitor over Xvfb's
            // `screen`): one mode, its own size; the output's mode is the framebuffer's, not this screen's.
            let own = ScreenMode(size: m.frame.size)
            return ScreenDescription(name: name, frame: m.frame, physicalSize: m.physicalSize, isPrimary: m.primary,
                                     outputs: outputs.map(\.name), modes: [own], currentMode: own, preferredMode: own)
        }
        // What the monitor says of itself: the first output's EDID that parses.
        let edid = outputs.lazy.compactMap { $0.edid.flatMap(EDID.init) }.first
        var modes: [ScreenMode] = [], seen = IDSet()
        var preferred: ScreenMode?
        for o in outputs {
            for (i, id) in o.modes.enumerated() where !seen.contains(id) {
                seen.insert(id)
                guard let info = modeTable[id] else { continue }
                modes.append(info.mode)
                if i < o.preferredCount && preferred == nil { preferred = info.mode }
            }
        }
        let crtc = outputs.lazy.compactMap { crtcs[$0.crtc] }.first
        let orientation = crtc?.orientation ?? (0, .none)
        // A CRTC turned by 90° or 270° shows its mode sideways: report the mode the way the frame is.
        let current = crtc.flatMap { modeTable[$0.mode]?.mode }?.rotated(byDegrees: orientation.degrees)
        let ramp = outputs.first { $0.crtc != 0 }.flatMap { gamma[$0.crtc] ?? nil }
        // The EDID's size is the panel's, landscape: turned with the picture, as RandR turns its own.
        let edidSize = edid?.physicalSize.map { orientation.degrees % 180 == 90 ? Size(width: $0.height, height: $0.width) : $0 }
        return ScreenDescription(
            name: name, frame: m.frame, physicalSize: edidSize ?? m.physicalSize, isPrimary: m.primary,
            outputs: outputs.map(\.name), modes: modes, currentMode: current, preferredMode: preferred,
            brightness: ramp ?? 1, hasHardwareBrightness: ramp != nil,
            rotation: orientation.degrees, reflection: orientation.reflection,
            manufacturer: edid?.manufacturer, model: edid?.model, serialNumber: edid?.serialNumber)
    }

    /// Whether a monitor over one output covers other than that output's CRTC: a client-defined region,
    /// whose size is its own and not the CRTC's mode.
    private static func isRegion(_ m: RandR.MonitorInfo, of outputs: [RandR.OutputInfo],
                                 _ modeTable: IDTable<RandR.ModeInfo>, _ crtcs: IDTable<RandR.CrtcInfo>) -> Bool {
        guard outputs.count == 1, let crtc = crtcs[outputs[0].crtc], let mode = modeTable[crtc.mode]?.mode else { return false }
        return mode.rotated(byDegrees: crtc.orientation.degrees).size != m.frame.size
    }

}
