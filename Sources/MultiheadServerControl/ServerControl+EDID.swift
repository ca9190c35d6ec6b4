internal import CXlib
import Multihead
import MultiheadX11

extension ServerControl {
    /// What a monitor plugged into an output says of itself: the values of its EDID.
    public struct MonitorIdentity: Sendable, Hashable {
        /// The manufacturer's PNP id: three letters A…Z ("DEL").
        public var manufacturer: String
        /// Its name, 1 to 13 printable ASCII characters ("DELL U2720Q").
        public var model: String
        /// Its serial number (1 to 13 printable ASCII characters), if it gives one.
        public var serialNumber: String?
        /// Its size in millimetres; nil: as a 96-dpi panel of the plugged size.
        public var physicalSize: Size?
        /// Modes it offers besides the preferred one (the plugged size), at most eight, each one an EDID can
        /// list as a standard timing: a width of 256…2288 in steps of 8, an aspect ratio of 16:10, 4:3, 5:4
        /// or 16:9, 60…123 Hz (a rate of 0 is 60).
        public var modes: [ScreenMode]
        /// Its product code (EDID bytes 10–11), which output managers (autorandr, kanshi) fingerprint by.
        public var productCode: UInt16
        /// Its binary serial number (EDID bytes 12–15), 0 when it gives none.
        public var binarySerial: UInt32
        /// The interface it says it is on; nil: the connector's (HDMI-1 HDMI, DP-2 DisplayPort).
        public var interface: EDID.Interface?

        /// A monitor's identity.
        public init(manufacturer: String = "MHD", model: String = "Multihead", serialNumber: String? = nil, physicalSize: Size? = nil,
                    modes: [ScreenMode] = [], productCode: UInt16 = 0, binarySerial: UInt32 = 0, interface: EDID.Interface? = nil) {
            self.manufacturer = manufacturer
            self.model = model
            self.serialNumber = serialNumber
            self.physicalSize = physicalSize
            self.modes = modes
            self.productCode = productCode
            self.binarySerial = binarySerial
            self.interface = interface
        }

        /// The EDID of this monitor with `size` (1 to 16384 pixels a side) as its preferred mode, or the
        /// reason it cannot be made. The mode has CVT timings at `refreshRate` (nil: 60 Hz, or the fastest
        /// whole rate RandR's 32-bit pixel clock carries at that size), with reduced blanking where normal
        /// blanking needs a faster clock than a base block's timing holds (655.35 MHz), as 4K monitors do.
        /// A mode a base block's timing holds is an EDID 1.4 base block alone; any other (4096 pixels or
        /// more a side, or a faster clock: 5K, 8K, 4K at 144 Hz) is described, as real monitors do, in a
        /// DisplayID 1.3 extension block (type I timing), and the base block's timing is a mode it holds:
        /// the same size at 60 Hz, else half the size (a quarter, …). `connector`: the output it is plugged
        /// into, whose kind is the EDID's interface unless `interface` names one.
        public func edid(preferred size: Size, refreshRate: Double? = nil, connector: String? = nil) throws -> [UInt8] {
            guard size.width.isFinite, size.height.isFinite, (1...16384).contains(size.width), (1...16384).contains(size.height),
                  size.width.rounded() == size.width, size.height.rounded() == size.height else {
                throw ServerControlError.invalidMonitor("an EDID describes a mode of 1 to 16384 whole pixels a side, not \(size.width)x\(size.height)")
            }
            let (w, h) = (Int(size.width), Int(size.height))
            let ascii = { (text: String?) in text.map { (1...13).contains($0.utf8.count) && $0.utf8.allSatisfy { (0x20...0x7E).contains($0) } } ?? true }
            guard manufacturer.utf8.count == 3, manufacturer.utf8.allSatisfy({ (65...90).contains($0) }), ascii(model), ascii(serialNumber) else {
                throw ServerControlError.invalidMonitor(
                    "cannot make an EDID of manufacturer \(manufacturer.terminalEscaped) (three letters A-Z), model \(model.terminalEscaped) and serial number \((serialNumber ?? "").terminalEscaped) (1 to 13 printable ASCII characters each)")
            }
            let mm = physicalSize ?? Self.panelSize(w, h)
            guard mm.width.isFinite, mm.height.isFinite, (0..<4096).contains(mm.width), (0..<4096).contains(mm.height) else {
                throw ServerControlError.invalidMonitor("an EDID holds a physical size of 0 to 4095 mm a side, not \(mm.width)x\(mm.height) mm")
            }
            let rate = refreshRate ?? Self.fastestRate(w, h, upTo: 60)
            // CVT needs a line period: a rate below 1 / 550 µs of vertical blanking.
            guard rate > 0, rate.isFinite, 1_000_000 / rate > 550,
                  UInt64(Self.timing(w, h, rate).pixelClockKHz) * 1000 <= ModeTimings.maximumDotClock else {
                throw ServerControlError.invalidMonitor(
                    "no \(w)x\(h) mode at \(String(rate: refreshRate ?? 60)) Hz: its pixel clock would pass RandR's 4294.97 MHz; the fastest at that size is \(Int(Self.fastestRate(w, h, upTo: 1000))) Hz")
            }
            let standard = modes.map {
                EDID.StandardTiming(width: Int($0.size.width), height: Int($0.size.height),
                                    refreshRate: $0.refreshRate > 0 ? Int($0.refreshRate.rounded()) : 60)
            }
            guard standard.count <= 8 else {
                throw ServerControlError.invalidMonitor("an EDID lists at most 8 modes besides the preferred one, not \(standard.count)")
            }
            if let bad = standard.first(where: { $0.bytes == nil }) {
                throw ServerControlError.invalidMonitor(
                    "an EDID cannot list \(bad.width)x\(bad.height)@\(bad.refreshRate) as a further mode: 256-2288 wide in steps of 8, 16:10, 4:3, 5:4 or 16:9, 60-123 Hz")
            }
            let asked = Self.timing(w, h, rate)
            let fits = EDID.fitsDetailedTiming(asked)
            let base = fits ? asked : Self.baseBlockTiming(w, h)
            guard var block = EDID.block(manufacturer: manufacturer, productCode: productCode, binarySerial: binarySerial, model: model,
                                         serialNumber: serialNumber, physicalSize: mm, interface: interface ?? connector.map(EDID.Interface.init(connector:)) ?? .displayPort, timing: base,
                                         standardTimings: standard)
            else { throw ServerControlError.invalidMonitor("cannot make an EDID for a \(w)x\(h) monitor") }
            guard !fits else { return block }
            guard let displayID = EDID.displayIDBlock(manufacturer: manufacturer, model: model, physicalSize: mm, timings: [asked]) else {
                throw ServerControlError.invalidMonitor("cannot make a DisplayID timing of \(w)x\(h) at \(String(rate: rate)) Hz")
            }
            // One extension block (byte 126), and the base block's checksum again.
            block[126] = 1
            return EDID.checksummed(block) + displayID
        }

        /// A 96-dpi panel's size in mm, scaled down where a side would pass the base block's 255 cm.
        private static func panelSize(_ w: Int, _ h: Int) -> Size {
            let mm = Size(width: (Double(w) * 25.4 / 96).rounded(), height: (Double(h) * 25.4 / 96).rounded())
            let shrink = min(1, 2550 / max(mm.width, mm.height))
            return Size(width: (mm.width * shrink).rounded(.down), height: (mm.height * shrink).rounded(.down))
        }

        /// CVT timings at `rate`: normal blanking when a base block's timing holds its clock, else reduced.
        private static func timing(_ w: Int, _ h: Int, _ rate: Double) -> EDID.Timing {
            let normal = ModeTimings.cvt(width: w, height: h, refreshRate: rate)
            let m = normal.dotClock <= UInt64(EDID.maximumDetailedTimingClockKHz) * 1000 ? normal
                : ModeTimings.cvtReducedBlanking(width: w, height: h, refreshRate: rate)
            return EDID.Timing(
                pixelClockKHz: Int(m.dotClock / 1000), width: Int(m.width), horizontalBlank: Int(m.hTotal - m.width),
                horizontalSyncOffset: Int(m.hSyncStart - m.width), horizontalSyncWidth: Int(m.hSyncEnd - m.hSyncStart),
                height: Int(m.height), verticalBlank: Int(m.vTotal - m.height), verticalSyncOffset: Int(m.vSyncStart - m.height),
                verticalSyncWidth: Int(m.vSyncEnd - m.vSyncStart))
        }

        /// The fastest whole rate up to `limit` whose timings RandR carries at that size (0: none).
        private static func fastestRate(_ w: Int, _ h: Int, upTo limit: Int) -> Double {
            let rate = stride(from: limit, through: 1, by: -1).first { UInt64(timing(w, h, Double($0)).pixelClockKHz) * 1000 <= ModeTimings.maximumDotClock }
            return Double(rate ?? 0)
        }

        /// The base block's timing beside a DisplayID one: the size at 60 Hz, or half of it, a quarter, …,
        /// the first one a detailed timing holds.
        private static func baseBlockTiming(_ w: Int, _ h: Int) -> EDID.Timing {
            var (bw, bh) = (w, h)
            while bw > 1, bh > 1, !EDID.fitsDetailedTiming(timing(bw, bh, 60)) { (bw, bh) = (bw / 2, bh / 2) }
            return timing(bw, bh, 60)
        }
    }

    /// An output's `EDID` property as it is (nil: it has none). Two round trips.
    func edidProperty(of output: UInt) -> [UInt8]? {
        let c = connection
        let atom = atom("EDID", create: true)
        return c.bounded { RandRBatch.outputProperties(c, outputs: [output]) }[output]?[atom]?.bytes
    }

    /// Publishes or removes (nil) an output's `EDID` property, as a driver does when a monitor is plugged
    /// or unplugged. `XRRChangeOutputProperty`, `XRRDeleteOutputProperty`.
    func setEDID(_ bytes: [UInt8]?, output: UInt) throws {
        let c = connection
        let atom = Atom(atom("EDID", create: true))
        // Deleting a property the output does not have is an error (BadName): look first (the names only).
        if bytes == nil, !(c.bounded { RandRBatch.propertyNames(c, outputs: [output])[output] ?? [] }.contains(UInt(atom))) { return }
        try c.trap("RRChangeOutputProperty EDID") {
            guard let bytes else { return XRRDeleteOutputProperty(c.display, RROutput(output), atom) }
            bytes.withUnsafeBufferPointer {
                XRRChangeOutputProperty(c.display, RROutput(output), atom, XA_INTEGER, 8, PropModeReplace, $0.baseAddress, Int32(bytes.count))
            }
        }
    }
}
