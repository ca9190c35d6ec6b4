internal import CCairo
import Foundation
import Multihead
import MultiheadProcess

extension Bitmap {
    /// Writes a PNG file: to a temporary file beside it, renamed over `path` only once complete, so that
    /// on any failure an existing file is left as it was.
    public func writePNG(to path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        let tmp = (dir.isEmpty ? "." : dir) + "/.\((path as NSString).lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        // A signal that ends the process mid-write removes it; a rename or failure below ends that.
        let guardSlot = TemporaryFiles.register(tmp)
        defer { TemporaryFiles.unregister(guardSlot) }
        do {
            try writePNGNow(to: tmp)
        } catch BitmapError.cannotWrite(_, let reason) {
            // The person named `path`: the hidden file beside it is ours to name and remove.
            unlink(tmp)
            throw BitmapError.cannotWrite(path: path, reason: reason)
        }
        guard rename(tmp, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(tmp)
            throw BitmapError.cannotWrite(path: path, reason: reason)
        }
    }

    private func writePNGNow(to path: String) throws {
        guard width > 0, height > 0 else { throw BitmapError.cannotWrite(path: path, reason: "the picture is empty") }
        // RGB24 rows are 4 bytes a pixel with no padding, so the pixel array is the surface's memory.
        var copy = pixels
        let status: cairo_status_t = copy.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                  let s = cairo.cairo_image_surface_create_for_data(base, CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(width * 4))
            else { return CAIRO_STATUS_NO_MEMORY }
            defer { cairo.cairo_surface_destroy(s) }
            errno = 0
            return cairo.cairo_surface_write_to_png(s, path)
        }
        let failure = errno
        guard status == CAIRO_STATUS_SUCCESS else {
            // cairo says only "error while writing to output stream"; the stdio call under it left errno
            // (ENOSPC, EACCES, ENOENT…), which is what a person can act on.
            let reason = failure != 0 ? String(cString: strerror(failure))
                : cairo.cairo_status_to_string(status).map { String(cString: $0) } ?? "cairo status \(status.rawValue)"
            throw BitmapError.cannotWrite(path: path, reason: reason)
        }
    }
}

/// Why a bitmap could not be written or read.
public enum BitmapError: Error, Equatable, CustomStringConvertible {
    /// The PNG could not be written.
    case cannotWrite(path: String, reason: String)
    /// The PNG could not be read.
    case cannotRead(path: String, reason: String)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .cannotWrite(let p, let r): "cannot write \(p.terminalEscaped): \(r)"
        case .cannotRead(let p, let r): "cannot read \(p.terminalEscaped): \(r)"
        }
    }
}

extension Bitmap {
    /// Reads a PNG file (as written by `writePNG`), for tests and tools that check pictures.
    public init(contentsOfPNG path: String) throws {
        guard let s = cairo.cairo_image_surface_create_from_png(path), cairo.cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            throw BitmapError.cannotRead(path: path, reason: "not a readable PNG")
        }
        defer { cairo.cairo_surface_destroy(s) }
        cairo.cairo_surface_flush(s)
        let w = Int(cairo.cairo_image_surface_get_width(s)), h = Int(cairo.cairo_image_surface_get_height(s))
        let stride = Int(cairo.cairo_image_surface_get_stride(s))
        self.init(width: w, height: h)
        guard let data = cairo.cairo_image_surface_get_data(s) else { return }
        let raw = UnsafeRawPointer(data)
        for y in 0..<h {
            for x in 0..<w { pixels[y * w + x] = raw.load(fromByteOffset: y * stride + x * 4, as: UInt32.self) & 0x00FF_FFFF }
        }
    }
}
