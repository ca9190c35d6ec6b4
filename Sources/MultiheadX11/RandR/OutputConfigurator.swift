internal import CXlib
import Multihead

/// The one path that puts a mode on an output's CRTC: the model's `setCurrentMode`, the kit's `plug` and
/// `setOutputMode` and the command line all come here. Under a server grab it picks the mode (`ModeChoice`),
/// makes one with CVT timings only when the server knows none of that size and the caller allows it, takes
/// the output's CRTC or a free one, grows the screen when the CRTC would not fit, and sets the CRTC.
@MainActor
package struct OutputConfigurator {
    /// Which mode to set.
    package enum Request: Sendable {
        /// Exactly this RandR mode.
        case mode(id: UInt64)
        /// A mode of this size; with a rate, the nearest within 0.5 Hz.
        case size(Size, refreshRate: Double?)
    }

    let connection: XConnection

    package init(_ connection: XConnection) { self.connection = connection }

    /// Sets `output`'s mode at `origin` (nil: where its CRTC is now, or (0, 0)), turned by `rotation`
    /// (RandR's bits; nil: keeping its rotation); makes it primary when asked. With `makeMissing`, a size the server has no mode for gets a CVT mode
    /// (60 Hz unless a rate is asked). `state` is what the caller read under the same grab (nil: read it
    /// here). Returns the mode set. `XRRSetCrtcConfig`.
    @discardableResult
    package func apply(output name: String, _ request: Request, origin: Point? = nil, rotation: UInt16? = nil, primary: Bool = false,
                       makeMissing: Bool = false, in state: RandRState? = nil) throws -> ScreenMode {
        let c = connection
        return try c.grabbed {
            let state = try state ?? read()
            guard let output = state.output(named: name) else { throw ScreenError.noSuchScreen(name) }
            var mode = try choose(request, for: output, state, outputName: name)
            var made = false
            if mode == nil, case .size(let size, let rate) = request, makeMissing {
                mode = try makeMode(size: size, refreshRate: rate ?? 60, output: name)
                made = true
            }
            guard let mode else { throw ScreenError.refused(screen: name, reason: "it has no such mode") }
            let added = !output.modes.contains(UInt(mode.backendID))
            do {
                if added {
                    try c.trap("RRAddOutputMode \(name)") { XRRAddOutputMode(c.display, RROutput(output.id), RRMode(mode.backendID)) }
                }
                return try light(output, mode, name: name, origin: origin, rotation: rotation, primary: primary, state)
            } catch {
                // A refused change leaves the output's modes as they were: the mode made or added goes.
                if added { _ = try? c.trap("RRDeleteOutputMode \(name)") { XRRDeleteOutputMode(c.display, RROutput(output.id), RRMode(mode.backendID)) } }
                if made { _ = try? c.trap("RRDestroyMode \(name)") { XRRDestroyMode(c.display, RRMode(mode.backendID)) } }
                throw error
            }
        }
    }

    /// Puts `mode` (on the output's list already) on the output's CRTC, or a free one, at `origin`.
    private func light(_ output: RandR.OutputInfo, _ mode: ScreenMode, name: String, origin: Point?, rotation asked: UInt16?,
                       primary: Bool, _ state: RandRState) throws -> ScreenMode {
        let c = connection
        let current = output.crtc != 0 ? state.crtc(output.crtc) : nil
        let crtc = output.crtc != 0 ? output.crtc : try freeCrtc(for: output, state)
        let rotation = asked ?? current?.rotation ?? UInt16(RR_Rotate_0)
        if let asked, asked != UInt16(RR_Rotate_0), (state.crtc(crtc)?.rotations ?? 0) & asked == 0 {
            throw ScreenError.refused(screen: name, reason: "its CRTC cannot turn (the server offers no rotation)")
        }
        let shown = mode.rotated(byDegrees: RandR.orientation(rotation).degrees).size
        let at = origin ?? current.map { Point(x: Double($0.x), y: Double($0.y)) } ?? .zero
        try growScreen(toHold: Rect(origin: at, size: shown), for: name, largest: state.largestScreen)
        var outputs = (current?.outputs ?? [output.id]).map { RROutput($0) }
        if !outputs.contains(RROutput(output.id)) { outputs.append(RROutput(output.id)) }
        try setCrtc(crtc, state, x: Int32(at.x), y: Int32(at.y), mode: UInt(mode.backendID), rotation: rotation, outputs: &outputs,
                    request: "RRSetCrtcConfig \(name) \(mode)")
        if primary { try c.trap("RRSetOutputPrimary \(name)") { XRRSetOutputPrimary(c.display, c.root, RROutput(output.id)) } }
        return mode
    }

    /// Takes an output's CRTC away (`xrandr --output NAME --off`); false when it had none. `XRRSetCrtcConfig`.
    @discardableResult
    package func turnOff(output name: String, in state: RandRState? = nil) throws -> Bool {
        let c = connection
        return try c.grabbed {
            let state = try state ?? read()
            guard let output = state.output(named: name) else { throw ScreenError.noSuchScreen(name) }
            guard output.crtc != 0 else { return false }
            var none: [RROutput] = []
            try setCrtc(output.crtc, state, x: 0, y: 0, mode: 0, rotation: UInt16(RR_Rotate_0), outputs: &none,
                        request: "RRSetCrtcConfig \(name) off")
            return true
        }
    }

    /// What RandR says now; a connection that cannot say is lost, or the server refused.
    package func read() throws -> RandRState {
        let c = connection
        try c.checkAlive()
        guard let state = c.bounded({ RandRBatch.state(c) }) else {
            try c.checkAlive()
            throw X11Error.refused(display: c.name, request: "RRGetScreenResourcesCurrent", status: -1)
        }
        return state
    }

    /// Sets a CRTC, carrying the configuration timestamp of the state it was decided on (the only field of
    /// the resources libXrandr reads). `XRRSetCrtcConfig`.
    /// `setCrtc` for a caller outside this module: outputs by id.
    package func setCrtc(_ crtc: UInt, _ state: RandRState, x: Int32, y: Int32, mode: UInt, rotation: UInt16,
                         outputs ids: [UInt], request: String) throws {
        var outputs = ids.map { RROutput($0) }
        try setCrtc(crtc, state, x: x, y: y, mode: mode, rotation: rotation, outputs: &outputs, request: request)
    }

    func setCrtc(_ crtc: UInt, _ state: RandRState, x: Int32, y: Int32, mode: UInt, rotation: UInt16,
                         outputs: inout [RROutput], request: String) throws {
        let c = connection
        var resources = XRRScreenResources()
        resources.configTimestamp = Time(state.resources.timestamp)
        let count = Int32(outputs.count)
        let status = try outputs.withUnsafeMutableBufferPointer { list in
            try c.trap(request) {
                XRRSetCrtcConfig(c.display, &resources, RRCrtc(crtc), Time(CurrentTime), x, y, RRMode(mode), Rotation(rotation),
                                 count == 0 ? nil : list.baseAddress, count)
            }
        }
        guard status == RRSetConfigSuccess else { throw X11Error.refused(display: c.name, request: request, status: Int(status)) }
    }

    private func choose(_ request: Request, for output: RandR.OutputInfo, _ state: RandRState, outputName: String) throws -> ScreenMode? {
        switch request {
        case .mode(let id):
            guard let m = state.mode(UInt(id)) else { throw ScreenError.refused(screen: outputName, reason: "the server has no mode \(id)") }
            return m
        case .size(let size, let rate):
            // The output's own modes first (in its order, preferred first), then any the server knows.
            let own = output.modes.compactMap { state.mode($0) }
            let others = state.resources.modes.entries.map(\.value.mode).filter { !output.modes.contains(UInt($0.backendID)) }
            for (pool, preferred) in [(own, output.preferredCount), (others, 0)] {
                switch ModeChoice.choose(pool, preferredCount: preferred, size: size, refreshRate: rate) {
                case .success(let m): return m
                case .failure(.noSuchRate(let rates)):
                    let list = rates.map { String(rate: $0) + " Hz" }.joined(separator: ", ")
                    throw ScreenError.refused(screen: outputName, reason:
                        "no \(Int(size.width))x\(Int(size.height)) mode at \(String(rate: rate ?? 0)) Hz; the rates there are: \(list)")
                case .failure(.noSuchSize): continue
                }
            }
            return nil
        }
    }

    /// A new CVT mode named as `cvt` names it ("1920x1080_60.00"). `XRRCreateMode`.
    private func makeMode(size: Size, refreshRate: Double, output: String) throws -> ScreenMode {
        let c = connection
        let (w, h) = (Int(size.width), Int(size.height))
        // RandR carries the pixel clock in 32 bits: past it the clock would wrap to another rate.
        guard ModeTimings.canMake(width: w, height: h, refreshRate: refreshRate) else {
            let fastest = ModeTimings.fastestMakeableRate(width: w, height: h)
            throw ScreenError.refused(screen: output, reason:
                "no \(w)x\(h) mode at \(String(rate: refreshRate)) Hz can be made (its pixel clock would pass RandR's 4294.97 MHz); the fastest is \(String(rate: fastest)) Hz")
        }
        let t = ModeTimings.cvt(width: w, height: h, refreshRate: refreshRate)
        let name = "\(t.width)x\(t.height)_\(String(rate: refreshRate))"
        guard let mi = XRRAllocModeInfo(name, Int32(name.utf8.count)) else { throw X11Error.refused(display: c.name, request: "XRRAllocModeInfo", status: -1) }
        defer { XRRFreeModeInfo(mi) }
        mi.pointee.width = t.width; mi.pointee.height = t.height
        mi.pointee.hSyncStart = t.hSyncStart; mi.pointee.hSyncEnd = t.hSyncEnd; mi.pointee.hTotal = t.hTotal
        mi.pointee.vSyncStart = t.vSyncStart; mi.pointee.vSyncEnd = t.vSyncEnd; mi.pointee.vTotal = t.vTotal
        mi.pointee.dotClock = UInt(t.dotClock)
        mi.pointee.modeFlags = UInt(RR_HSyncNegative | RR_VSyncPositive)
        let id = try c.trap("RRCreateMode \(name)") { XRRCreateMode(c.display, c.root, mi) }
        return ScreenMode(width: Int(t.width), height: Int(t.height), refreshRate: t.refreshRate, backendID: UInt64(id))
    }

    /// A CRTC that drives nothing and can drive the output.
    private func freeCrtc(for output: RandR.OutputInfo, _ state: RandRState) throws -> UInt {
        for crtc in output.possibleCrtcs where state.crtc(crtc)?.outputs.isEmpty ?? false { return crtc }
        throw ScreenError.refused(screen: output.name, reason: "no free CRTC can drive it")
    }

    /// Grows the screen (never shrinks it) to hold `frame`, reading the root's real size (`XGetGeometry`)
    /// rather than Xlib's cache. A size past the server's range, or one it refuses (Xorg+dummy's BadMatch
    /// past what its VideoRam holds, below the range it reports), is the frame asked for being too large:
    /// `ScreenError.refused` naming the size, not an X error. `XRRSetScreenSize`.
    private func growScreen(toHold frame: Rect, for output: String, largest range: Size) throws {
        let c = connection
        let now = c.rootSize()
        let needW = max(Int(now.width), Int(frame.maxX)), needH = max(Int(now.height), Int(frame.maxY))
        guard needW > Int(now.width) || needH > Int(now.height) else { return }
        guard needW <= Int(range.width), needH <= Int(range.height) else {
            throw ScreenError.refused(screen: output, reason:
                "\(frame) needs a \(needW)x\(needH) desktop, past the server's largest, \(Int(range.width))x\(Int(range.height))")
        }
        do {
            try c.trap("RRSetScreenSize \(needW)x\(needH)") {
                XRRSetScreenSize(c.display, c.root, Int32(needW), Int32(needH),
                                 Int32((Double(needW) * 25.4 / 96).rounded()), Int32((Double(needH) * 25.4 / 96).rounded()))
            }
        } catch X11Error.protocolError(_, _, _, let code) where code == BadMatch {
            throw ScreenError.refused(screen: output, reason:
                "\(frame) needs a \(needW)x\(needH) desktop, which the server cannot make (more than its video memory holds); the desktop is \(Int(now.width))x\(Int(now.height)) now")
        }
    }
}
