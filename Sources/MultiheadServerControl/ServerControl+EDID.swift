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

        /// A monitor's identity.
        public init(manufacturer: String = "MHD", model: String = "Multihead", serialNumber: String? = nil, physicalSize: Size? = nil,
                    modes: [ScreenMode] = []) {
            self.manufacturer = manufacturer
            self.model = model
            self.serialNumber = serialNumber
            self.physicalSize = physicalSize
            self.modes = modes
        }

        /// The EDID 1.4 base block of this monitor with `size` as its preferred mode (CVT timings at
        /// `refreshRate`, 60 Hz unless given; with reduced blanking where normal blanking needs a faster
        /// pixel clock than an EDID timing holds, 655.35 MHz, as 4K monitors do), or the reason it cannot
        /// be made.
        public func edid(preferred size: Size, refreshRate: Double = 60) throws -> [UInt8] {
            let mm = physicalSize ?? Size(width: (size.width * 25.4 / 96).rounded(), height: (size.height * 25.4 / 96).rounded())
            let normal = ModeTimings.cvt(width: Int(size.width), height: Int(size.height), refreshRate: refreshRate)
            let m = normal.dotClock <= 655_350_000 ? normal
                : ModeTimings.cvtReducedBlanking(width: Int(size.width), height: Int(size.height), refreshRate: refreshRate)
            let timing = EDID.Timing(
                pixelClockKHz: Int(m.dotClock / 1000), width: Int(m.width), horizontalBlank: Int(m.hTotal - m.width),
                horizontalSyncOffset: Int(m.hSyncStart - m.width), horizontalSyncWidth: Int(m.hSyncEnd - m.hSyncStart),
                height: Int(m.height), verticalBlank: Int(m.vTotal - m.height), verticalSyncOffset: Int(m.vSyncStart - m.height),
                verticalSyncWidth: Int(m.vSyncEnd - m.vSyncStart))
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
            guard let block = EDID.block(manufacturer: manufacturer, model: model, serialNumber: serialNumber, physicalSize: mm, timing: timing,
                                         standardTimings: standard)
            else {
                throw ServerControlError.invalidMonitor(
                    "cannot make an EDID of manufacturer \(manufacturer.terminalEscaped) (three letters A-Z), model \(model.terminalEscaped) and serial number \((serialNumber ?? "").terminalEscaped) (1 to 13 printable ASCII characters each), \(Int(mm.width))x\(Int(mm.height)) mm, \(Int(size.width))x\(Int(size.height))")
            }
            return block
        }
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
