internal import CCairo
internal import CXlib
#if canImport(Glibc)
import Glibc
#endif
import Multihead

/// A window's pixels: memory that cairo draws into and X reads from — a MIT-SHM segment shared with the
/// server when it offers one, or plain memory sent with `XPutImage`.
@MainActor
final class PixelBuffer {
    let width: Int
    let height: Int
    let surface: OpaquePointer
    private let display: OpaquePointer
    private let image: UnsafeMutablePointer<XImage>
    /// On the heap: `XShmCreateImage` keeps a pointer to it in the image (`obdata`), used by every put.
    private var shm: UnsafeMutablePointer<XShmSegmentInfo>?
    private let plainMemory: UnsafeMutableRawPointer?

    /// The canvas every frame of this buffer draws with, made at the first one (a cairo context each frame
    /// cost an allocation and its teardown).
    var canvas: CairoCanvas {
        if let canvasStorage { return canvasStorage }
        let c = CairoCanvas(surface: surface)
        canvasStorage = c
        return c
    }
    private var canvasStorage: CairoCanvas?

    /// The shared segment's ID, if shared.
    var segmentID: Int32? { shm?.pointee.shmid }
    /// The server's name for the shared segment (what its completion events carry), if shared.
    var segment: UInt? {
        // No Optional.map: read at each completion event, and a main-actor closure checks the executor.
        guard let shm else { return nil }
        return UInt(shm.pointee.shmseg)
    }
    /// Puts of the shared pixels the server has not finished reading (it says so with one completion event
    /// each): cairo must not draw into the buffer until this is 0.
    var unreadPuts = 0
    /// Whether the fence lists it among the buffers put since its last wait for every read (`ShmFence.put`).
    var listedUnread = false

    /// How the pixels are laid out: what cairo draws and what the server's visual reads.
    enum Format: Sendable {
        /// 24-bit TrueColor, 32 bits a pixel (cairo's RGB24).
        case rgb24
        /// 16-bit TrueColor with 5-6-5 masks, 16 bits a pixel (cairo's RGB16_565): a depth-16 server.
        case rgb565

        var depth: UInt32 { self == .rgb24 ? 24 : 16 }
        var cairoFormat: cairo_format_t { self == .rgb24 ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_RGB16_565 }
        /// cairo's row length in bytes (rows padded to 4 bytes, as X's 32-bit scanline pad has them).
        func stride(width: Int) -> Int { Int(cairo.cairo_format_stride_for_width(cairoFormat, Int32(width))) }
    }

    /// Makes a buffer of `width × height` (both ≥ 1) in `format` for the presenter's visual; `shared` tries
    /// MIT-SHM and falls back to plain memory when the server refuses the segment. Nil when memory runs out.
    init?(connection: XConnection, visual: UnsafeMutablePointer<Visual>, format: Format, width: Int, height: Int, shared: Bool) {
        let display = connection.display
        self.display = display
        self.width = width
        self.height = height
        let stride = format.stride(width: width)
        if shared, let made = Self.makeShared(connection, visual, format, width, height, stride: stride) {
            image = made.image
            shm = made.info
            plainMemory = nil
        } else {
            guard let mem = calloc(stride * height, 1),
                  let img = XCreateImage(display, visual, format.depth, ZPixmap, 0, mem.assumingMemoryBound(to: CChar.self),
                                         UInt32(width), UInt32(height), 32, Int32(stride)) else { return nil }
            image = img
            plainMemory = mem
        }
        guard let data = image.pointee.data,
              let s = cairo.cairo_image_surface_create_for_data(UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt8.self),
                                                          format.cairoFormat, Int32(width), Int32(height), Int32(stride))
        else { return nil }
        surface = s
    }

    /// A segment of mode 0600, attached by the server and marked for removal at once, so that nothing is
    /// left behind whatever happens to the process. Nil when the server cannot attach it.
    private static func makeShared(_ c: XConnection, _ visual: UnsafeMutablePointer<Visual>, _ format: Format, _ w: Int, _ h: Int,
                                   stride: Int) -> (image: UnsafeMutablePointer<XImage>, info: UnsafeMutablePointer<XShmSegmentInfo>)? {
        let d = c.display
        let info = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        info.initialize(to: XShmSegmentInfo())
        func fail(_ img: UnsafeMutablePointer<XImage>?) -> (UnsafeMutablePointer<XImage>, UnsafeMutablePointer<XShmSegmentInfo>)? {
            if let img { img.pointee.data = nil; _ = mh_destroy_image(img) }
            info.deallocate()
            return nil
        }
        guard let img = XShmCreateImage(d, visual, format.depth, ZPixmap, nil, info, UInt32(w), UInt32(h)) else { return fail(nil) }
        // cairo and X must agree on the row length, or the picture shears.
        guard img.pointee.bytes_per_line == Int32(stride) else { return fail(img) }
        let id = shmget(IPC_PRIVATE, stride * h, IPC_CREAT | 0o600)
        guard id >= 0 else { return fail(img) }
        guard let addr = shmat(id, nil, 0), addr != UnsafeMutableRawPointer(bitPattern: -1) else {
            shmctl(id, IPC_RMID, nil)
            return fail(img)
        }
        info.pointee.shmid = id
        info.pointee.shmaddr = addr.assumingMemoryBound(to: CChar.self)
        info.pointee.readOnly = 0
        img.pointee.data = info.pointee.shmaddr
        // A remote server cannot attach our memory: BadAccess, trapped, and plain memory is used instead.
        let attached = (try? c.trap("ShmAttach") { XShmAttach(d, info) != 0 }) ?? false
        // The server has attached (or refused); either way the segment goes when the last user detaches.
        shmctl(id, IPC_RMID, nil)
        guard attached else {
            shmdt(addr)
            return fail(img)
        }
        return (img, info)
    }

    var debugInfo: String { "depth \(image.pointee.depth) bpp \(image.pointee.bits_per_pixel) bpl \(image.pointee.bytes_per_line) shm \(shm != nil)" }

    /// Sends the pixels of `area` (all of them when nil) to the same place of `drawable`; returns how
    /// many pixels went. A shared put asks for a completion event (counted in `unreadPuts` until it comes);
    /// plain memory is copied into the request. `XShmPutImage`, or `XPutImage`.
    @discardableResult
    func put(to drawable: UInt, gc: GC, area: PixelRect? = nil) -> Int {
        let a = (area ?? PixelRect(x: 0, y: 0, width: width, height: height)).clamped(width: width, height: height)
        guard a.width > 0, a.height > 0 else { return 0 }
        let (x, y, w, h) = (Int32(a.x), Int32(a.y), UInt32(a.width), UInt32(a.height))
        if shm != nil {
            XShmPutImage(display, Drawable(drawable), gc, image, x, y, x, y, w, h, 1)
            unreadPuts += 1
        } else {
            XPutImage(display, Drawable(drawable), gc, image, x, y, x, y, w, h)
        }
        return a.width * a.height
    }

    /// Fills the buffer with `drawable`'s pixels from (x, y) through the shared segment; false when the
    /// buffer is plain memory (the caller reads with `XGetImage` then). `XShmGetImage`.
    func readShared(from drawable: UInt, x: Int, y: Int, on c: XConnection) throws -> Bool {
        guard shm != nil else { return false }
        return try c.trap("ShmGetImage") {
            XShmGetImage(display, Drawable(drawable), image, Int32(x), Int32(y), mh_all_planes()) != 0
        }
    }

    /// An rgb24 buffer's pixels as 0xRRGGBB, row by row (`width × height` of them).
    func rgbPixels() -> [UInt32] {
        let w = width, h = height
        guard let data = image.pointee.data else { return [UInt32](repeating: 0, count: w * h) }
        let stride = Int(image.pointee.bytes_per_line), raw = UnsafeRawPointer(data)
        // Written once, not zeroed first, 16 pixels a step (a load and a mask per pixel was not vectorized:
        // 2.5 ms for 1920×1080).
        typealias Pixels16 = SIMD16<UInt32>
        let mask = Pixels16(repeating: 0x00FF_FFFF)
        return [UInt32](unsafeUninitializedCapacity: w * h) { out, count in
            guard let base = out.baseAddress else { return }
            let bytes = UnsafeMutableRawPointer(base)
            for row in 0..<h {
                let line = raw + row * stride, target = bytes + row * w * 4
                var col = 0
                while col + 16 <= w {
                    target.storeBytes(of: line.loadUnaligned(fromByteOffset: col * 4, as: Pixels16.self) & mask,
                                      toByteOffset: col * 4, as: Pixels16.self)
                    col += 16
                }
                while col < w {
                    base[row * w + col] = line.loadUnaligned(fromByteOffset: col * 4, as: UInt32.self) & 0x00FF_FFFF
                    col += 1
                }
            }
            count = w * h
        }
    }

    /// Releases the memory and the segment (detached by the server too, unless the connection is gone).
    func release(connectionAlive: Bool) {
        // The canvas holds the surface: both go before the memory under them.
        canvasStorage = nil
        cairo.cairo_surface_destroy(surface)
        image.pointee.data = nil
        if let info = shm {
            if connectionAlive { XShmDetach(display, info) }
            shmdt(info.pointee.shmaddr)
            // XDestroyImage does not free obdata; the image must go before the info it points at.
            image.pointee.obdata = nil
        }
        _ = mh_destroy_image(image)
        if let info = shm {
            info.deallocate()
            shm = nil
        }
        if let plainMemory { free(plainMemory) }
    }
}

/// A rectangle of whole pixels in a window's buffer.
struct PixelRect: Equatable {
    var x: Int, y: Int, width: Int, height: Int

    /// The pixels a rectangle of points covers at `scale`, its coordinates starting at `origin` in pixels
    /// (rounded outwards).
    init(covering r: Rect, scale: Double, origin: Point = .zero) {
        let s = scale.isFinite && scale > 0 ? scale : 1
        let x0 = Rounding.down(r.minX * s + origin.x), y0 = Rounding.down(r.minY * s + origin.y)
        let x1 = Rounding.up(r.maxX * s + origin.x), y1 = Rounding.up(r.maxY * s + origin.y)
        func int(_ v: Double) -> Int { v.isFinite ? Int(max(-1e9, min(1e9, v))) : 0 }
        self.init(x: int(x0), y: int(y0), width: int(x1 - x0), height: int(y1 - y0))
    }

    init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The part inside a buffer of that size.
    func clamped(width w: Int, height h: Int) -> PixelRect {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(w, x + width), y1 = min(h, y + height)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}
