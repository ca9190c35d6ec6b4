internal import CXlib
import Multihead

/// Reads pixels back from the server.
@MainActor
package enum Screenshot {
    /// The root window's pixels over a rectangle, clipped to the root. `XGetImage`.
    package static func capture(_ c: XConnection, _ rect: Rect) throws -> Bitmap {
        try c.checkAlive()
        let d = c.display
        // The root's size now: Xlib's cached one lags behind a RandR change another client made.
        guard rect.isFinite, let r = rect.intersection(Rect(origin: .zero, size: c.rootSize())) else {
            return Bitmap(width: 0, height: 0)
        }
        let x = Int(r.minX), y = Int(r.minY), w = Int(r.width), h = Int(r.height)
        let image = try c.trap("GetImage") {
            XGetImage(d, Drawable(c.root), Int32(x), Int32(y), UInt32(w), UInt32(h), mh_all_planes(), ZPixmap)
        }
        guard let image else { throw X11Error.refused(display: c.name, request: "GetImage", status: -1) }
        defer { _ = mh_destroy_image(image) }
        var bitmap = Bitmap(width: w, height: h)
        let img = image.pointee
        if img.bits_per_pixel == 32, img.byte_order == LSBFirst, let data = img.data {
            let stride = Int(img.bytes_per_line)
            let raw = UnsafeRawPointer(data)
            for row in 0..<h {
                for col in 0..<w {
                    bitmap.pixels[row * w + col] = raw.load(fromByteOffset: row * stride + col * 4, as: UInt32.self) & 0x00FF_FFFF
                }
            }
        } else {
            for row in 0..<h {
                for col in 0..<w {
                    bitmap.pixels[row * w + col] = UInt32(truncatingIfNeeded: mh_get_pixel(image, Int32(col), Int32(row))) & 0x00FF_FFFF
                }
            }
        }
        return bitmap
    }
}

extension X11Backend {
    /// A screen's pixels as the server shows them (`XGetImage` over the monitor's rectangle).
    public func screenshot(of screen: Multihead.Screen) throws -> Bitmap {
        guard let c = connection else { throw X11Error.connectionLost(requestedDisplay ?? "") }
        return try Screenshot.capture(c, screen.frame)
    }

    /// The pixels of a desktop rectangle, clipped to the root window.
    public func screenshot(of rect: Rect) throws -> Bitmap {
        guard let c = connection else { throw X11Error.connectionLost(requestedDisplay ?? "") }
        return try Screenshot.capture(c, rect)
    }

    /// The whole desktop's pixels (the root window).
    public func desktopScreenshot() throws -> Bitmap {
        guard let c = connection else { throw X11Error.connectionLost(requestedDisplay ?? "") }
        return try Screenshot.capture(c, Rect(x: 0, y: 0, width: 32767, height: 32767))
    }
}
