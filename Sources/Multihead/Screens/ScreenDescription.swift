/// What a backend knows of one monitor at one moment: an element of a screen snapshot.
///
/// Backends produce these; the model turns a list of them into `Screen` objects. Two descriptions
/// with the same `name` are the same monitor.
public struct ScreenDescription: Hashable, Sendable {
    /// The monitor's name (the RandR monitor's name atom, such as "DUMMY1" or "EXT-1"): its identity.
    public var name: String
    /// Where the monitor sits on the desktop, in root window pixels.
    public var frame: Rect
    /// The physical size in millimetres, zero when unknown.
    public var physicalSize: Size
    /// Whether the server marks this monitor primary.
    public var isPrimary: Bool
    /// The names of the outputs (connectors) that feed the monitor; empty for a virtual monitor.
    public var outputs: [String]
    /// Every mode the monitor's outputs offer.
    public var modes: [ScreenMode]
    /// The mode the monitor shows now.
    public var currentMode: ScreenMode?
    /// The mode the monitor prefers, when it says.
    public var preferredMode: ScreenMode?
    /// The brightness, 0…1.
    public var brightness: Double
    /// Whether the backend can set brightness in hardware (a CRTC gamma ramp).
    public var hasHardwareBrightness: Bool
    /// How the CRTC turns the picture: 0, 90, 180 or 270 degrees counter-clockwise, as xrandr says.
    public var rotation: Int
    /// How the CRTC mirrors the picture.
    public var reflection: Reflection
    /// Whether this is the stand-in for "no monitor active": never announced, never a real monitor.
    public var isStandIn: Bool
    /// Pixels per point, as `ScreenScalePolicy` chooses it (on X11: a factor by name, else `Xft.dpi` / 96,
    /// else the monitor's density); from 0.5 to 8, one outside given to `init` is 1.
    public var scale: Double
    /// The manufacturer's PNP id from the monitor's EDID ("DEL"), nil without one.
    public var manufacturer: String?
    /// The monitor's name from its EDID ("DELL U2720Q"), nil without one.
    public var model: String?
    /// The monitor's serial number from its EDID, nil without one.
    public var serialNumber: String?

    /// Makes a description; modes default to the frame's own size.
    public init(
        name: String, frame: Rect, physicalSize: Size = .zero, isPrimary: Bool = false,
        outputs: [String] = [], modes: [ScreenMode]? = nil, currentMode: ScreenMode? = nil,
        preferredMode: ScreenMode? = nil, brightness: Double = 1, hasHardwareBrightness: Bool = false,
        rotation: Int = 0, reflection: Reflection = .none, isStandIn: Bool = false, scale: Double = 1,
        manufacturer: String? = nil, model: String? = nil, serialNumber: String? = nil
    ) {
        let own = ScreenMode(size: frame.standardized.size)
        self.name = name
        self.frame = frame.standardized
        self.physicalSize = physicalSize
        self.isPrimary = isPrimary
        self.outputs = outputs
        self.modes = modes ?? [own]
        self.currentMode = currentMode ?? (modes == nil ? own : nil)
        self.preferredMode = preferredMode
        self.brightness = brightness
        self.hasHardwareBrightness = hasHardwareBrightness
        self.rotation = rotation
        self.reflection = reflection
        self.isStandIn = isStandIn
        // A scale is one `ScreenScalePolicy` takes (0.5 to 8), whatever the backend: anything else draws
        // at 1 (a tiny one would make a screen of 10^305 points).
        self.scale = ScreenScalePolicy.isValid(scale) ? scale : 1
        self.manufacturer = manufacturer
        self.model = model
        self.serialNumber = serialNumber
    }

    /// The name of the screen that stands in when the server reports no active monitor.
    public static let standInName = "(no monitor)"

    /// The stand-in screen: the whole desktop of the given size, so that `Screen.screens` is never empty.
    /// It is never announced: no connect or disconnect is ever posted for it.
    public static func standIn(size: Size) -> ScreenDescription {
        ScreenDescription(name: standInName, frame: Rect(origin: .zero, size: size), isStandIn: true)
    }

    /// The one rule for a server with no active monitor: the screens as read, or else the stand-in, of
    /// `size` (the desktop's: the root window's on X, the last screen's for a model that had one).
    public static func nonEmpty(_ screens: [ScreenDescription], standInSize size: @autoclosure () throws -> Size) rethrows -> [ScreenDescription] {
        screens.isEmpty ? [standIn(size: try size())] : screens
    }

    /// Whether what makes up the mode (frame, modes, current and preferred mode, outputs) differs. The
    /// physical size alone is not a mode: servers derive it from the screen's DPI, and it shifts by a
    /// millimetre when another monitor grows the screen.
    func modeDiffers(from other: ScreenDescription) -> Bool {
        frame != other.frame || modes != other.modes || currentMode != other.currentMode
            || preferredMode != other.preferredMode || outputs != other.outputs
            || rotation != other.rotation || reflection != other.reflection || scale != other.scale
    }
}

extension ScreenDescription {
    /// A CRTC's reflection (RandR's `RR_Reflect_X` / `RR_Reflect_Y`).
    public enum Reflection: String, Hashable, Sendable, CaseIterable {
        /// Not mirrored.
        case none
        /// Mirrored left to right.
        case x
        /// Mirrored top to bottom.
        case y
        /// Both.
        case xy
    }
}
