/// One way a screen can be driven: its size in pixels and its refresh rate (UIScreenMode).
public struct ScreenMode: Hashable, Sendable, CustomStringConvertible {
    /// The size in pixels.
    public var size: Size
    /// The aspect ratio of one pixel (width / height); 1 for square pixels.
    public var pixelAspectRatio: Double
    /// Frames per second, 0 when the server does not know (Xvfb, virtual monitors).
    public var refreshRate: Double
    /// The backend's identifier of the mode (a RandR mode XID), 0 for a mode no output offers.
    public var id: UInt64

    /// Makes a mode.
    public init(size: Size, refreshRate: Double = 0, pixelAspectRatio: Double = 1, id: UInt64 = 0) {
        self.size = size
        self.refreshRate = refreshRate
        self.pixelAspectRatio = pixelAspectRatio
        self.id = id
    }

    /// Makes a mode from whole pixel sizes.
    public init(width: Int, height: Int, refreshRate: Double = 0, id: UInt64 = 0) {
        self.init(size: Size(width: Double(width), height: Double(height)), refreshRate: refreshRate, id: id)
    }

    /// The refresh rate from X's mode timings: dotClock / (hTotal × vTotal), 0 when unknown.
    public static func refreshRate(dotClock: UInt64, hTotal: UInt32, vTotal: UInt32) -> Double {
        guard dotClock > 0, hTotal > 0, vTotal > 0 else { return 0 }
        return Double(dotClock) / (Double(hTotal) * Double(vTotal))
    }

    /// "1920x1080@60.00Hz".
    public var description: String {
        "\(size)" + (refreshRate > 0 ? "@" + String(format2: refreshRate) + "Hz" : "")
    }
}

extension String {
    /// A number with two decimals, without Foundation's locale-dependent formatting.
    init(format2 value: Double) {
        let scaled = (value * 100).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { self = String(value); return }
        let whole = Int64(scaled) / 100, frac = abs(Int64(scaled) % 100)
        self = "\(whole)." + (frac < 10 ? "0" : "") + "\(frac)"
    }
}
