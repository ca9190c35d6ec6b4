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

    /// Sets `output`'s mode at `origin` (nil: where its CRTC is now, or (0, 0)), keeping its rotation;
    /// makes it primary when asked. With `makeMissing`, a size the server has no mode for gets a CVT mode
    /// (60 Hz unless a rate is asked). Returns the mode set. `XRRSetCrtcConfig`.
    @discardableResult
    package func apply(output name: String, _ request: Request, origin: Point? = nil, primary: Bool = false,
                       makeMissing: Bool = false) throws -> ScreenMode {
        let c = connection
        return try c.grabbed {
            try withResources { res in
                guard let output = find(output: name, res) else { throw ScreenError.refused(screen: name, reason: "no output named \(name)") }
                let table = modeTable(res)
                var mode = try choose(request, for: output, table, outputName: name)
                if mode == nil, case .size(let size, let rate) = request, makeMissing {
                    mode = try makeMode(size: size, refreshRate: rate ?? 60, output: name)
                }
                guard let mode else { throw ScreenError.refused(screen: name, reason: "it has no such mode") }
                if !output.modes.contains(RRMode(mode.id)) {
                    try c.trap("RRAddOutputMode \(name)") { XRRAddOutputMode(c.display, output.id, RRMode(mode.id)) }
                }
                let current = output.crtc != 0 ? crtcInfo(output.crtc, res) : nil
                let crtc = output.crtc != 0 ? output.crtc : try freeCrtc(for: output, res)
                let rotation = current?.rotation ?? Rotation(RR_Rotate_0)
                let degrees = RandR.orientation(UInt16(rotation)).degrees
                let shown = mode.rotated(byDegrees: degrees).size
                let at = origin ?? current.map { Point(x: Double($0.x), y: Double($0.y)) } ?? .zero
                try growScreen(toHold: Rect(origin: at, size: shown), for: name)
                var outputs = current?.outputs ?? [output.id]
                if !outputs.contains(output.id) { outputs.append(output.id) }
                let status = try c.trap("RRSetCrtcConfig \(name) \(mode)") {
                    XRRSetCrtcConfig(c.display, res, crtc, Time(CurrentTime), Int32(at.x), Int32(at.y), RRMode(mode.id),
                                     rotation, &outputs, Int32(outputs.count))
                }
                guard status == RRSetConfigSuccess else {
                    throw X11Error.refused(display: c.name, request: "RRSetCrtcConfig \(name) \(mode)", status: Int(status))
                }
                if primary { try c.trap("RRSetOutputPrimary \(name)") { XRRSetOutputPrimary(c.display, c.root, output.id) } }
                return mode
            }
        }
    }

    /// Takes an output's CRTC away (`xrandr --output NAME --off`); false when it had none. `XRRSetCrtcConfig`.
    @discardableResult
    package func turnOff(output name: String) throws -> Bool {
        let c = connection
        return try c.grabbed {
            try withResources { res in
                guard let output = find(output: name, res) else { throw ScreenError.refused(screen: name, reason: "no output named \(name)") }
                guard output.crtc != 0 else { return false }
                let status = try c.trap("RRSetCrtcConfig \(name) off") {
                    XRRSetCrtcConfig(c.display, res, output.crtc, Time(CurrentTime), 0, 0, RRMode(0), Rotation(RR_Rotate_0), nil, 0)
                }
                guard status == RRSetConfigSuccess else {
                    throw X11Error.refused(display: c.name, request: "RRSetCrtcConfig \(name) off", status: Int(status))
                }
                return true
            }
        }
    }

    /// What an output is now.
    struct Output {
        var id: RROutput
        var crtc: RRCrtc
        var modes: [RRMode]
        var preferredCount: Int
        var possibleCrtcs: [RRCrtc]
    }

    private func choose(_ request: Request, for output: Output, _ table: [RRMode: ScreenMode], outputName: String) throws -> ScreenMode? {
        switch request {
        case .mode(let id):
            guard let m = table[RRMode(id)] else { throw ScreenError.refused(screen: outputName, reason: "the server has no mode \(id)") }
            return m
        case .size(let size, let rate):
            // The output's own modes first (in its order, preferred first), then any the server knows.
            let own = output.modes.compactMap { table[$0] }
            let others = table.values.filter { !output.modes.contains(RRMode($0.id)) }.sorted { $0.id < $1.id }
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
        return ScreenMode(width: Int(t.width), height: Int(t.height), refreshRate: t.refreshRate, id: UInt64(id))
    }

    private func modeTable(_ res: UnsafeMutablePointer<XRRScreenResources>) -> [RRMode: ScreenMode] {
        var table: [RRMode: ScreenMode] = [:]
        for i in 0..<Int(res.pointee.nmode) {
            let m = res.pointee.modes[i]
            table[m.id] = RandR.screenMode(m)
        }
        return table
    }

    /// An output by name. `XRRGetOutputInfo`.
    private func find(output name: String, _ res: UnsafeMutablePointer<XRRScreenResources>) -> Output? {
        let d = connection.display
        for i in 0..<Int(res.pointee.noutput) {
            let id = res.pointee.outputs[i]
            guard let o = XRRGetOutputInfo(d, res, id) else { continue }
            defer { XRRFreeOutputInfo(o) }
            let p = o.pointee
            guard String(decoding: UnsafeRawBufferPointer(start: p.name, count: Int(p.nameLen)), as: UTF8.self) == name else { continue }
            return Output(id: id, crtc: p.crtc, modes: (0..<Int(p.nmode)).map { p.modes[$0] }, preferredCount: Int(p.npreferred),
                          possibleCrtcs: (0..<Int(p.ncrtc)).map { p.crtcs[$0] })
        }
        return nil
    }

    private func crtcInfo(_ crtc: RRCrtc, _ res: UnsafeMutablePointer<XRRScreenResources>) -> (x: Int32, y: Int32, rotation: Rotation, outputs: [RROutput])? {
        guard let info = XRRGetCrtcInfo(connection.display, res, crtc) else { return nil }
        defer { XRRFreeCrtcInfo(info) }
        let p = info.pointee
        return (p.x, p.y, p.rotation, (0..<Int(p.noutput)).map { p.outputs[$0] })
    }

    /// A CRTC that drives nothing and can drive the output. `XRRGetCrtcInfo`.
    private func freeCrtc(for output: Output, _ res: UnsafeMutablePointer<XRRScreenResources>) throws -> RRCrtc {
        for crtc in output.possibleCrtcs {
            if let info = crtcInfo(crtc, res), info.outputs.isEmpty { return crtc }
        }
        throw ScreenError.refused(screen: "output \(output.id)", reason: "no free CRTC can drive it")
    }

    /// Grows the screen (never shrinks it) to hold `frame`, reading the root's real size (`XGetGeometry`)
    /// rather than Xlib's cache. A size past the server's range, or one it refuses (Xorg+dummy's BadMatch
    /// past what its VideoRam holds, below the range it reports), is the frame asked for being too large:
    /// `ScreenError.refused` naming the size, not an X error. `XRRSetScreenSize`.
    private func growScreen(toHold frame: Rect, for output: String) throws {
        let c = connection
        let now = c.rootSize()
        let needW = max(Int(now.width), Int(frame.maxX)), needH = max(Int(now.height), Int(frame.maxY))
        guard needW > Int(now.width) || needH > Int(now.height) else { return }
        let range = c.screenSizeRange()
        guard needW <= Int(range.width), needH <= Int(range.height) else {
            throw ScreenError.refused(screen: output, reason:
                "\(frame) needs a \(needW)x\(needH) desktop, past the server's largest, \(Int(range.width))x\(Int(range.height))")
        }
        do {
            try c.trap("RRSetScreenSize \(needW)x\(needH)") {
                XRRSetScreenSize(c.display, c.root, Int32(needW), Int32(needH),
                                 Int32((Double(needW) * 25.4 / 96).rounded()), Int32((Double(needH) * 25.4 / 96).rounded()))
            }
        } catch X11Error.protocolError(_, _, let text) where text.contains("BadMatch") {
            throw ScreenError.refused(screen: output, reason:
                "\(frame) needs a \(needW)x\(needH) desktop, which the server cannot make (more than its video memory holds); the desktop is \(Int(now.width))x\(Int(now.height)) now")
        }
    }

    private func withResources<T>(_ body: (UnsafeMutablePointer<XRRScreenResources>) throws -> T) throws -> T {
        let c = connection
        try c.checkAlive()
        // The Current variant does not make the server probe its outputs (which can change their mode lists).
        guard let res = XRRGetScreenResourcesCurrent(c.display, c.root) else {
            try c.checkAlive()
            throw X11Error.refused(display: c.name, request: "RRGetScreenResourcesCurrent", status: -1)
        }
        defer { XRRFreeScreenResources(res) }
        return try body(res)
    }
}
