internal import CCairo
import Multihead

/// A `GraphicsContext` over a cairo context: what views draw with, on screen and offscreen alike.
@MainActor
final class CairoCanvas: GraphicsContext, PixelFrameDrawing {
    // Optional only in type: cairo_create never returns NULL (an error context at worst).
    private let cr: OpaquePointer?

    private let surface: OpaquePointer

    /// Draws on an image surface; the caller keeps the surface alive while the canvas is used. Text picks
    /// its face when drawn (`drawText`), so a frame without text touches no font.
    init(surface: OpaquePointer, storesSolidFills: Bool = true) {
        self.surface = surface
        cr = cairo.cairo_create(surface)
        let format = cairo.cairo_image_surface_get_format(surface)
        let width = Int(cairo.cairo_image_surface_get_width(surface)), height = Int(cairo.cairo_image_surface_get_height(surface))
        // Whole 32-bit pixels only (a depth-16 surface goes through cairo).
        self.storesSolidFills = storesSolidFills && (format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32) && width > 0 && height > 0
        extent = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        state = State(device: DeviceState(clip: extent))
        // An image surface's memory and rows stay where they are for its life: asked once.
        pixels = cairo.cairo_image_surface_get_data(surface)
        stride = Int(cairo.cairo_image_surface_get_stride(surface))
    }

    /// The surface's pixels, all of them: what a fill given to cairo in pixels is cut to first.
    private let extent: PixelBox
    /// The surface's pixels and the bytes a row, for stored fills.
    private let pixels: UnsafeMutablePointer<UInt8>?
    private let stride: Int
    /// Whether cairo may have drawn since its surface was last flushed: a store flushes it first, and only
    /// then (a frame of stored fills calls cairo not at all).
    private var cairoMayHaveDrawn = true
    /// Pixels stored since cairo was last told (`cairo_surface_mark_dirty_rectangle`): it is told before
    /// it draws again, the only time it could use what it knew of them.
    private var storedUntold: PixelBox?

    /// Fills stored straight into pixels so far: what tests check the shortcut was taken by.
    static var storedFills = 0
    /// Clips given to cairo so far: what tests check a clip that changes nothing is left out by.
    static var cairoClips = 0
    /// Whether whole-pixel opaque fills are stored straight into the surface's pixels.
    private let storesSolidFills: Bool
    /// The state as the drawing sees it and what cairo has not heard of it: one stored value, so that a
    /// save, a restore or a move is one exclusivity check, not one for each field (a frame's dozen).
    private var state: State
    /// Where user space lands in pixels and what the clip leaves (cairo gets them when it draws).
    private var device: DeviceState { state.device }

    private struct State {
        /// Where user space lands in pixels and what the clip leaves; saved and restored with the state.
        var device: DeviceState
        /// State changes made here and not yet given to cairo, in order: a frame whose every fill is stored
        /// never calls cairo's save, clip and restore at all (each costs more than a small fill).
        var journal: [StateChange] = []
        /// Each open save: the state it restores, and its place in `journal` (nil once cairo has it).
        var saves: [(device: DeviceState, place: Int?)] = []

        mutating func save() {
            journal.append(.save)
            saves.append((device, journal.count - 1))
        }

        /// Undoes the last save; true when cairo must restore too (it had that save), nil when there was none.
        mutating func restore() -> Bool? {
            guard let save = saves.popLast() else { return nil }
            device = save.device
            // Never given to cairo: it and everything after it are dropped, unsaid. Given to cairo: what
            // came after it and was not is dropped; cairo undoes the rest.
            guard let place = save.place else {
                journal.removeAll(keepingCapacity: true)
                return true
            }
            journal.removeSubrange(place...)
            return false
        }

        mutating func scale(by factor: Double) {
            device.scale *= factor
            journal.append(.scale(factor))
        }

        mutating func translate(by offset: Point) {
            device.translate(by: offset)
            journal.append(.translate(offset.x, offset.y))
        }

        /// Adds a clip, unless it changes nothing.
        mutating func clip(to rect: Rect) {
            guard !device.keepsClip(rect) else { return }
            device.clip(to: rect)
            journal.append(.clip(rect))
        }

        /// Cairo has every change: every open save is cairo's now.
        mutating func journalApplied() {
            journal.removeAll(keepingCapacity: true)
            for i in saves.indices { saves[i].place = nil }
        }
    }

    /// A change to cairo's state, held until cairo draws.
    private enum StateChange {
        case save
        case scale(Double)
        case translate(Double, Double)
        case clip(Rect)
    }

    isolated deinit { cairo.cairo_destroy(cr) }

    /// Makes what was drawn readable by others (the X server, a PNG writer): cairo's drawing is finished
    /// (stored fills are in memory already). `cairo_surface_flush`.
    func flush() {
        guard cairoMayHaveDrawn else { return }
        cairo.cairo_surface_flush(surface)
        cairoMayHaveDrawn = false
    }

    /// Draws everything after this `factor` times larger: points to pixels.
    func scale(by factor: Double) {
        guard factor.isFinite, factor > 0, factor != 1 else { return }
        state.scale(by: factor)
    }

    func saveState() { state.save() }

    func restoreState() {
        switch state.restore() {
        case nil:
            // Unbalanced: cairo says so (its context goes into an error state), as before.
            applyJournal()
            cairo.cairo_restore(cr)
        case true?: cairo.cairo_restore(cr)
        case false?: break
        }
    }

    func translate(by offset: Point) {
        state.translate(by: offset)
    }

    func clip(to rect: Rect) {
        // One that changes nothing (a label's bounds around its own damage) is not cairo's to hear: each
        // costs a path and a clip computation when drawn.
        state.clip(to: rect)
    }

    /// Before anything cairo itself draws: tells it of the pixels stored since it last heard, and gives it
    /// the state changes it has not had (`applyJournal`). `cairo_surface_mark_dirty_rectangle`.
    private func beforeCairoDraws() {
        if let box = storedUntold {
            cairo.cairo_surface_mark_dirty_rectangle(surface, Int32(box.x0), Int32(box.y0), Int32(box.x1 - box.x0), Int32(box.y1 - box.y0))
            storedUntold = nil
        }
        cairoMayHaveDrawn = true
        applyJournal()
    }

    /// Gives cairo the state changes it has not had. `cairo_save`, `cairo_scale`, `cairo_translate`,
    /// `cairo_rectangle`, `cairo_clip`.
    private func applyJournal() {
        guard !state.journal.isEmpty else { return }
        for change in state.journal {
            switch change {
            case .save: cairo.cairo_save(cr)
            case .scale(let f): cairo.cairo_scale(cr, f, f)
            case .translate(let x, let y): cairo.cairo_translate(cr, x, y)
            case .clip(let r):
                Self.cairoClips += 1
                cairo.cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
                cairo.cairo_clip(cr)
            }
        }
        state.journalApplied()
    }

    func beginTransparencyLayer(alpha: Double) {
        beforeCairoDraws()
        cairo.cairo_push_group(cr)
        layerAlphas.append(alpha)
    }

    func endTransparencyLayer() {
        beforeCairoDraws()
        cairo.cairo_pop_group_to_source(cr)
        cairo.cairo_paint_with_alpha(cr, layerAlphas.popLast() ?? 1)
    }

    private var layerAlphas: [Double] = []

    func fill(_ rect: Rect, with color: Color) {
        // Most of what views draw: an opaque rectangle on whole pixels. cairo's path, clip and compositor
        // cost more than the pixels for a small one (a moving view's frame); the pixels are the same.
        if stores(color), let box = device.pixels(of: rect) {
            return store(SolidPixel.rgb24(color), in: box)
        }
        beforeCairoDraws()
        cairo.cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo.cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
        cairo.cairo_fill(cr)
    }

    func fillBackground(_ rect: Rect, with color: Color) {
        guard let centres = device.centres(of: rect) else { return fill(rect, with: color) }
        // Within the surface: a huge view's box (to ±2^30) would wrap in cairo's fixed point.
        let box = centres.intersection(extent)
        if box.isEmpty || color.alpha <= 0 { return }
        if stores(color), let clip = device.clip {
            return store(SolidPixel.rgb24(color), in: clip.intersection(box))
        }
        // The same pixels through cairo: a rectangle on pixel boundaries blends no edge.
        beforeCairoDraws()
        cairo.cairo_save(cr)
        cairo.cairo_identity_matrix(cr)
        cairo.cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo.cairo_rectangle(cr, Double(box.x0), Double(box.y0), Double(box.x1 - box.x0), Double(box.y1 - box.y0))
        cairo.cairo_fill(cr)
        cairo.cairo_restore(cr)
    }

    func backgroundCoversClip(_ rect: Rect) -> Bool {
        device.backgroundCoversClip(rect)
    }

    /// cairo's measurements: what this canvas draws text with.
    var textMeasurer: (any TextMeasuring)? { CairoText.Measurer() }

    func drawText(_ text: String, at point: Point, fontSize: Double, color: Color) {
        drawText(text, at: point, font: .systemFont(ofSize: fontSize), color: color)
    }

    func drawText(_ text: String, at point: Point, font: Font, color: Color) {
        beforeCairoDraws()
        CairoText.select(font, on: cr)
        var extents = cairo_font_extents_t()
        cairo.cairo_font_extents(cr, &extents)
        cairo.cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo.cairo_move_to(cr, point.x, point.y + extents.ascent)
        // withCString: a short string's bytes go on the stack; the implicit conversion makes an array.
        text.withCString { cairo.cairo_show_text(cr, $0) }
    }

    /// Whether a fill of `color` on whole pixels is stored rather than drawn: opaque, outside any layer.
    private func stores(_ color: Color) -> Bool {
        storesSolidFills && layerAlphas.isEmpty && color.alpha >= 1
    }

    /// Stores `pixel` in every pixel of `box` (within the surface and the clip); cairo hears of it before
    /// it draws next. `cairo_surface_flush` when cairo drew since its last flush.
    private func store(_ pixel: UInt32, in box: PixelBox) {
        Self.storedFills += 1
        guard !box.isEmpty, let data = pixels else { return }
        flush()
        let width = box.x1 - box.x0
        // glibc's wmemset stores 32-bit values with SIMD (wchar_t is 32 bits on Linux); a Swift loop did not.
        for y in box.y0..<box.y1 {
            let row = UnsafeMutableRawPointer(data + y * stride + box.x0 * 4).bindMemory(to: wchar_t.self, capacity: width)
            _ = wmemset(row, wchar_t(bitPattern: pixel), width)
        }
        if let told = storedUntold { storedUntold = told.union(box) } else { storedUntold = box }
    }

    /// Frames copied straight into pixels so far: what tests check the shortcut was taken by.
    static var copiedFrames = 0

    func draw(_ frame: PixelFrame, in rect: Rect) {
        guard frame.width > 0, frame.height > 0 else { return }
        // A frame on whole pixels at its own size, outside any layer: its rows copied where they go (a GL
        // view's every frame), the bottom row last. cairo would convert and blend the same pixels.
        if storesSolidFills, layerAlphas.isEmpty, let data = pixels, let box = device.centres(of: rect),
           box.x1 - box.x0 == frame.width, box.y1 - box.y0 == frame.height, let clipped = device.pixels(of: rect) {
            Self.copiedFrames += 1
            guard !clipped.isEmpty else { return }
            flush()
            let bytes = (clipped.x1 - clipped.x0) * 4, column = (clipped.x0 - box.x0) * 4
            for y in clipped.y0..<clipped.y1 {
                let source = frame.base + (frame.height - 1 - (y - box.y0)) * frame.bytesPerRow + column
                (data + y * stride + clipped.x0 * 4).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes)
            }
            if let told = storedUntold { storedUntold = told.union(clipped) } else { storedUntold = clipped }
            return
        }
        // Anything else through cairo: the rows as an image, turned upright and stretched over `rect`.
        // `cairo_image_surface_create_for_data`, `cairo_set_source_surface`, `cairo_paint`.
        beforeCairoDraws()
        guard let image = cairo.cairo_image_surface_create_for_data(UnsafeMutablePointer(mutating: frame.base.assumingMemoryBound(to: UInt8.self)),
                                                                     CAIRO_FORMAT_RGB24, Int32(frame.width), Int32(frame.height),
                                                                     Int32(frame.bytesPerRow)) else { return }
        defer { cairo.cairo_surface_destroy(image) }
        cairo.cairo_save(cr)
        cairo.cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
        cairo.cairo_clip(cr)
        cairo.cairo_translate(cr, rect.minX, rect.maxY)
        cairo.cairo_scale(cr, rect.width / Double(frame.width), -rect.height / Double(frame.height))
        cairo.cairo_set_source_surface(cr, image, 0, 0)
        cairo.cairo_paint(cr)
        cairo.cairo_restore(cr)
    }

    /// Fills everything with opaque black: a window's pixels start black, as X windows have no alpha.
    func clearToBlack() {
        beforeCairoDraws()
        cairo.cairo_save(cr)
        cairo.cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo.cairo_set_source_rgb(cr, 0, 0, 0)
        cairo.cairo_paint(cr)
        cairo.cairo_restore(cr)
    }
}
