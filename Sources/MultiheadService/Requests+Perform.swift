import ArgumentParser
import Multihead
import MultiheadControl
import MultiheadServerControl
import MultiheadX11

// Each request's execution on an X server: the request is a value, decoded and checked where it was made
// (its declaration and `validate()` are the protocol's and know no X); running it needs `ServerControl`.

extension PlugRequest {
    /// Plugs the monitor.
    @MainActor
    package func perform(_ control: ServerControl) throws {
        try refuseScaleOnX(scale)
        let frame = geometry.frame
        // A size alone: a virtual monitor's millimetres, or an output's EDID of a monitor that size
        // (`ServerControl.plug`'s rule).
        let turned = rotation ?? .normal
        if identity.givesOnlySize {
            try control.plug(name, frame: frame, primary: primary, refreshRate: rate, physicalSize: identity.size(), rotation: turned)
            return
        }
        try control.plug(name, frame: frame, primary: primary, refreshRate: rate,
                         edid: identity.edidBytes(preferred: frame.size, refreshRate: rate, connector: name), rotation: turned)
    }
}

extension UnplugRequest {
    /// Unplugs the monitor.
    @MainActor
    package func perform(_ control: ServerControl) throws {
        try control.unplug(name, keepPrimary: keepPrimary)
    }
}

extension ModeRequest {
    /// Sets the mode; the mode set.
    @MainActor
    package func perform(_ control: ServerControl) throws -> ScreenMode {
        try refuseScaleOnX(scale)
        // The kit may resize Xvfb's framebuffer through its output; a person asking for a monitor's mode
        // means a monitor. The server says which output that is (`ServerControl.isXvfb`).
        guard !control.isXvfbOutput(name) else {
            throw UsageError(message: "\"\(name.terminalEscaped)\" is Xvfb's own output, whose modes belong to the framebuffer; plug a named monitor and change that")
        }
        return try control.setMode(name, size: size.size, refreshRate: rate, rotation: rotation)
    }
}

extension PixelRequest {
    /// The pixel's value, 0xRRGGBB.
    @MainActor
    package func perform(_ control: ServerControl) throws -> UInt32 {
        if let screen { return try control.pixel(x: x, y: y, on: screen) }
        let bitmap = try control.screenshot(of: Rect(x: Double(x), y: Double(y), width: 1, height: 1))
        guard let v = bitmap.pixel(x: 0, y: 0) else {
            throw ServerControlError.invalidInput("pixel (\(x), \(y)) outside the framebuffer")
        }
        return v
    }
}

extension ScreenshotRequest {
    /// Captures and writes the PNG; the picture's size.
    @MainActor
    package func perform(_ control: ServerControl) throws -> (width: Int, height: Int) {
        let screens = ScreenDiff.ordered(try control.screens())
        let rect: Rect
        if let screen {
            guard let s = screens.first(where: { $0.name == screen }) else {
                throw UsageError(message: "no screen named \(screen.terminalEscaped); the screens are \(screens.map(\.name.terminalEscaped).joined(separator: ", "))")
            }
            rect = s.frame
        } else {
            // The monitors' union, not the whole framebuffer (Xvfb's is larger than its monitors).
            guard let first = screens.first else { throw UsageError(message: "the server shows no screen; nothing to capture") }
            rect = screens.dropFirst().reduce(first.frame) { $0.union($1.frame) }
        }
        let bitmap = try control.screenshot(of: rect)
        guard bitmap.width > 0, bitmap.height > 0 else {
            throw UsageError(message: "\(screen.map { "screen \($0.terminalEscaped)" } ?? "the desktop") lies outside the framebuffer; nothing to capture")
        }
        try bitmap.writePNG(to: output.path)
        return (bitmap.width, bitmap.height)
    }
}

extension MoveWindowRequest {
    /// Moves the window, waiting at most `seconds` for a window manager to; the window as it is then.
    @MainActor
    package func perform(_ control: ServerControl, within seconds: Double = 5) throws -> ServerWindow {
        guard let f = frame else { return try control.moveWindow(UInt(window), to: screen, within: seconds) }
        guard let width = f.width, let height = f.height else {
            return try control.moveWindow(UInt(window), to: screen, at: Point(x: Double(f.x), y: Double(f.y)), within: seconds)
        }
        return try control.moveWindow(UInt(window), to: screen, frame: Rect(x: Double(f.x), y: Double(f.y), width: Double(width), height: Double(height)),
                                      within: seconds)
    }
}

extension FullscreenWindowRequest {
    /// Makes it fullscreen, waiting at most `seconds` for a window manager to; the window as it is then.
    @MainActor
    package func perform(_ control: ServerControl, within seconds: Double = 5) throws -> ServerWindow {
        try control.fullscreenWindow(UInt(window), on: screen, within: seconds)
    }
}
