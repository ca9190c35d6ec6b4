/// Pixels read back from a display or rendered offscreen: 0x00RRGGBB, row by row. A plain value: the
/// model and every backend share it (reading and writing PNG files is the X11 backend's, with cairo).
public struct Bitmap: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The pixels, `width × height`, top row first, each 0x00RRGGBB.
    public var pixels: [UInt32]

    /// A black bitmap.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        pixels = Array(repeating: 0, count: self.width * self.height)
    }

    /// A bitmap of these pixels, taken as they are when there are `width × height` of them (a read back
    /// fills them once, not after zeroing); black otherwise.
    package init(width: Int, height: Int, pixels: [UInt32]) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.pixels = pixels.count == self.width * self.height ? pixels : Array(repeating: 0, count: self.width * self.height)
    }

    /// The pixel at (x, y) as 0xRRGGBB; nil outside.
    public func pixel(x: Int, y: Int) -> UInt32? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return pixels[y * width + x]
    }

    /// The pixel at (x, y) as a colour; nil outside.
    public func color(x: Int, y: Int) -> Color? {
        pixel(x: x, y: y).map {
            Color(red: Double(($0 >> 16) & 0xFF) / 255, green: Double(($0 >> 8) & 0xFF) / 255, blue: Double($0 & 0xFF) / 255)
        }
    }

    /// A colour as the X11 presenter draws it on a 24-bit server (0xRRGGBB): cairo's rounding, each
    /// component taken to 16 bits (`v × 65535 + ½`, truncated) and then its top 8 bits. So
    /// `Color(white: 0.95)` is 0xF3F3F3, not the 0xF2F2F2 that rounding `v × 255` gives.
    public static func rgb(_ c: Color) -> UInt32 {
        func b(_ v: Double) -> UInt32 {
            let clamped = v.isFinite ? min(1, max(0, v)) : 0
            return UInt32(clamped * 65535 + 0.5) >> 8
        }
        return b(c.red) << 16 | b(c.green) << 8 | b(c.blue)
    }

    /// Whether the pixel at (x, y) is `color` as drawn (`rgb(_:)`), each channel within `tolerance`
    /// (0…255) of it; false outside the bitmap.
    public func pixel(x: Int, y: Int, matches color: Color, tolerance: Int = 0) -> Bool {
        guard let p = pixel(x: x, y: y) else { return false }
        let want = Self.rgb(color)
        return [16, 8, 0].allSatisfy { shift in
            abs(Int((p >> UInt32(shift)) & 0xFF) - Int((want >> UInt32(shift)) & 0xFF)) <= tolerance
        }
    }

    /// How many pixels differ from another bitmap of the same size (all of them if sizes differ).
    public func differingPixels(from other: Bitmap) -> Int {
        guard width == other.width, height == other.height else { return max(pixels.count, other.pixels.count) }
        return zip(pixels, other.pixels).reduce(0) { $0 + ($1.0 != $1.1 ? 1 : 0) }
    }
}
