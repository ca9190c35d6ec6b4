/// One way a screen can be driven: its size in pixels and its refresh rate (UIScreenMode). Two modes are
/// equal when their values are (size, pixel aspect ratio, refresh rate, interlace), as in UIKit: a mode a
/// person builds from those values equals the screen's and can be set.
public struct ScreenMode: Hashable, Sendable, CustomStringConvertible {
    /// The size in pixels.
    public var size: Size
    /// The aspect ratio of one pixel (width / height); 1 for square pixels.
    public var pixelAspectRatio: Double
    /// Frames per second, 0 when the server does not know (Xvfb, virtual monitors).
    public var refreshRate: Double
    /// Whether the mode is interlaced (each refresh draws every other line; the rate is the field rate).
    public var isInterlaced: Bool
    /// The backend's identifier of the mode (a RandR mode XID), 0 for a mode no output offers: which of
    /// two modes with the same values the server listed. Not part of equality.
    package var backendID: UInt64

    /// Makes a mode.
    public init(size: Size, refreshRate: Double = 0, pixelAspectRatio: Double = 1, isInterlaced: Bool = false) {
        self.size = size
        self.refreshRate = refreshRate
        self.pixelAspectRatio = pixelAspectRatio
        self.isInterlaced = isInterlaced
        backendID = 0
    }

    /// Makes a mode from whole pixel sizes.
    public init(width: Int, height: Int, refreshRate: Double = 0, isInterlaced: Bool = false) {
        self.init(size: Size(width: Double(width), height: Double(height)), refreshRate: refreshRate, isInterlaced: isInterlaced)
    }

    /// Makes a mode a backend listed, with its identifier.
    package init(width: Int, height: Int, refreshRate: Double = 0, isInterlaced: Bool = false, backendID: UInt64) {
        self.init(width: width, height: height, refreshRate: refreshRate, isInterlaced: isInterlaced)
        self.backendID = backendID
    }

    /// Whether two modes have the same values.
    public static func == (a: ScreenMode, b: ScreenMode) -> Bool {
        a.size == b.size && a.pixelAspectRatio == b.pixelAspectRatio && a.refreshRate == b.refreshRate
            && a.isInterlaced == b.isInterlaced
    }

    /// Hashes the values that equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(size.width)
        hasher.combine(size.height)
        hasher.combine(pixelAspectRatio)
        hasher.combine(refreshRate)
        hasher.combine(isInterlaced)
    }

    /// The same mode as a CRTC rotated by 90° or 270° shows it: width and height swapped, so that the
    /// size matches the screen's frame (GLFW reports rotated modes the same way).
    public func rotated(byDegrees degrees: Int) -> ScreenMode {
        guard degrees == 90 || degrees == 270 else { return self }
        var m = self
        m.size = Size(width: size.height, height: size.width)
        return m
    }

    /// "1920x1080@60Hz", "1920x1080@59.94Hz", "1920x1080i@60Hz".
    public var description: String {
        "\(size)" + (isInterlaced ? "i" : "") + (refreshRate > 0 ? "@" + String(rate: refreshRate) + "Hz" : "")
    }
}

extension String {
    /// A number with two decimals, without Foundation's locale-dependent formatting.
    package init(format2 value: Double) {
        let scaled = (value * 100).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { self = String(value); return }
        let whole = Int64(scaled) / 100, frac = abs(Int64(scaled) % 100)
        self = "\(whole)." + (frac < 10 ? "0" : "") + "\(frac)"
    }

    /// A refresh rate as people read it: two decimals unless it is whole at that precision ("60", "59.94").
    public init(rate value: Double) {
        let two = String(format2: value)
        self = two.hasSuffix(".00") ? String(two.dropLast(3)) : two
    }
}
