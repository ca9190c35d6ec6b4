import Foundation
import Logging

/// A monitor attached to the X server (UIScreen): its frame on the desktop, its modes, its brightness.
///
/// `Screen` objects are made and retired by the application as the backend reports monitors; one object
/// stands for one monitor name for as long as that monitor is connected, across mode changes.
@MainActor
public final class Screen {
    /// The application whose backend reports this screen.
    public private(set) weak var application: Application?
    /// The latest description the backend gave.
    public private(set) var snapshot: ScreenDescription
    /// Whether the monitor is still connected; false once its disconnect notification is posted.
    public private(set) var isConnected = true
    /// Another screen that shows the same rectangle of the desktop, earlier in `screens` (UIKit's
    /// `mirroredScreen`).
    public internal(set) var mirrored: Screen?
    /// Dim in our own drawing rather than through the hardware, even where the hardware could.
    public var wantsSoftwareDimming = false {
        didSet { if oldValue != wantsSoftwareDimming { applyBrightness(brightnessStorage) } }
    }
    /// The model's brightness; `snapshot.brightness` is what the hardware reports.
    private var brightnessStorage: Double
    /// The brightness our own drawing applies (1 when the hardware dims).
    public private(set) var softwareBrightness: Double = 1

    init(_ snapshot: ScreenDescription, application: Application) {
        self.snapshot = snapshot
        self.name = snapshot.name
        brightnessStorage = snapshot.brightness
        self.application = application
    }

    /// The monitor's name, such as "DUMMY1": its identity.
    public nonisolated let name: String
    /// The screen's own rectangle in points: origin (0, 0), the frame's size divided by `scale`.
    public var bounds: Rect {
        Rect(x: 0, y: 0, width: snapshot.frame.width / snapshot.scale, height: snapshot.frame.height / snapshot.scale)
    }
    /// Where the screen sits on the desktop (root window coordinates).
    public var frame: Rect { snapshot.frame }
    /// Pixels per point, from 0.5 to 8, as `ScreenScalePolicy` chooses it: a factor by name, else the X
    /// resource `Xft.dpi` / 96 (96 → 1, 144 → 1.5, 192 → 2), else the monitor's density.
    /// Windows and views work in points; the presenter draws at this scale.
    public var scale: Double { snapshot.scale }
    /// The scale of the physical pixels: the same as `scale` on X, which draws every pixel.
    public var nativeScale: Double { snapshot.scale }
    /// The bounds in pixels (`bounds` × `nativeScale`).
    public var nativeBounds: Rect { Rect(origin: .zero, size: snapshot.frame.size) }
    /// Whether this is the stand-in that `Screen.main` is while no monitor is active.
    public var isStandIn: Bool { snapshot.isStandIn }
    /// Whether the server marks this monitor primary.
    public var isPrimary: Bool { snapshot.isPrimary }
    /// How the picture is turned: 0, 90, 180 or 270 degrees.
    public var rotation: Int { snapshot.rotation }
    /// How the picture is mirrored.
    public var reflection: ScreenDescription.Reflection { snapshot.reflection }
    /// The physical size in millimetres (the monitor's EDID's where it has one), zero when unknown.
    public var physicalSize: Size { snapshot.physicalSize }
    /// The manufacturer's three-letter PNP id from the monitor's EDID, such as "DEL"; nil without an EDID
    /// (a virtual monitor).
    public var manufacturer: String? { snapshot.manufacturer }
    /// The monitor's name from its EDID, such as "DELL U2720Q"; nil when it gives none.
    public var model: String? { snapshot.model }
    /// The monitor's serial number from its EDID; nil when it gives none.
    public var serialNumber: String? { snapshot.serialNumber }
    /// Every mode the screen's outputs offer.
    public var availableModes: [ScreenMode] { snapshot.modes }
    /// The mode the monitor prefers, when it says.
    public var preferredMode: ScreenMode? { snapshot.preferredMode }
    /// The mode the monitor shows now. Setting it asks the server for one of `availableModes`, as UIKit's
    /// `currentMode` does; the new mode shows here once the server has made the change (its
    /// `modeDidChangeNotification`). A mode the screen does not list, `nil`, or a change the server refuses
    /// is logged and leaves the mode as it was; `setCurrentMode(_:)` throws instead.
    public var currentMode: ScreenMode? {
        get { snapshot.currentMode }
        set {
            guard let mode = newValue else {
                Application.logger.warning("refused to set no mode on screen \(name.terminalEscaped)")
                return
            }
            do { try setCurrentMode(mode) } catch {
                Application.logger.warning("mode \(mode) refused on screen \(name.terminalEscaped): \(error)")
            }
        }
    }

    /// How a TV's overscan is compensated (UIScreen.overscanCompensation): stored, and without effect on X,
    /// where monitors show every pixel.
    public var overscanCompensation: OverscanCompensation = .scale
    /// The insets overscan takes (UIScreen.overscanCompensationInsets): always zero on X.
    public var overscanCompensationInsets: EdgeInsets { .zero }
    /// The screen's coordinates (UIScreen.coordinateSpace): (0, 0) at its top-left corner.
    public var coordinateSpace: any CoordinateSpace { ScreenCoordinateSpace(self) }
    /// The screen's fixed coordinates (UIScreen.fixedCoordinateSpace): the same as `coordinateSpace` on X,
    /// where the picture never turns under the program.
    public var fixedCoordinateSpace: any CoordinateSpace { ScreenCoordinateSpace(self) }

    /// How the picture is fitted to a TV's overscan (UIScreen.OverscanCompensation).
    public enum OverscanCompensation: Sendable {
        /// Scaled to fit.
        case scale
        /// The bounds inset.
        case insetBounds
        /// No compensation.
        case none
    }
    /// The names of the outputs that feed this monitor.
    public var outputs: [String] { snapshot.outputs }
    /// The highest frame rate the screen shows: its mode's refresh rate, 60 when the mode does not say.
    public var maximumFramesPerSecond: Int {
        guard let hz = currentMode?.refreshRate, hz.isFinite, hz >= 1 else { return 60 }
        return Int(hz.rounded())
    }

    /// Switches the screen to one of its `availableModes`; throws when the backend refuses.
    public func setCurrentMode(_ mode: ScreenMode) throws {
        guard isConnected, let app = application else { throw ScreenError.disconnected(name) }
        // The screen's own mode of those values: the backend knows which of its modes that is.
        guard let listed = availableModes.first(where: { $0 == mode }) else { throw ScreenError.modeNotAvailable(mode, screen: name) }
        if listed == currentMode { return }
        try app.backend.setMode(listed, forScreenNamed: name)
    }

    /// The brightness, 0…1 (values outside are clamped, non-finite ones refused). Set in hardware (the
    /// CRTC's gamma) where the screen has it and `wantsSoftwareDimming` is false; otherwise our own drawing
    /// dims. `brightnessDidChangeNotification` is posted once per change.
    public var brightness: Double {
        get { brightnessStorage }
        set {
            guard FiniteInput.accepts(newValue.isFinite, "brightness \(newValue) for screen \(name)") else { return }
            let clamped = min(1, max(0, newValue))
            guard clamped != brightnessStorage else { return }
            applyBrightness(clamped)
            application?.post(.brightnessChange(self))
        }
    }

    func applyBrightness(_ value: Double) {
        brightnessStorage = value
        var dimmedInHardware = false
        if snapshot.hasHardwareBrightness, let app = application {
            // With software dimming wanted, the hardware goes back to full brightness.
            let hardware = wantsSoftwareDimming ? 1 : value
            do {
                try app.backend.setBrightness(hardware, forScreenNamed: name)
                snapshot.brightness = hardware
                dimmedInHardware = !wantsSoftwareDimming
            } catch {
                Application.logger.warning("hardware brightness failed on \(name): \(error); dimming in software")
            }
        }
        softwareBrightness = dimmedInHardware ? 1 : value
        application?.screenNeedsRedraw(self)
    }

    /// Takes a new report from the backend.
    func update(_ new: ScreenDescription) {
        snapshot = new
    }

    /// The hardware's brightness changed outside the model (`xrandr --brightness`): adopt it.
    func adoptHardwareBrightness() {
        guard !wantsSoftwareDimming else { return }
        brightnessStorage = snapshot.brightness
        softwareBrightness = 1
        application?.screenNeedsRedraw(self)
    }

    func markDisconnected() {
        isConnected = false
        // Its display links are no longer valid: the clock, their one registry, lets them go now.
        application?.frameClock.screenDisconnected()
    }
}

extension Screen {
    /// The connected screens, main first, then by position (y, x); reading it makes no round trip.
    public static var screens: [Screen] { Application.shared.screens }
    /// The main screen: the primary monitor, else the one at the desktop's origin, else the first.
    public static var main: Screen { Application.shared.mainScreen }

    /// Posted when a monitor is connected; the object is the new `Screen`.
    nonisolated public static let didConnectNotification = Notification.Name("MultiheadScreenDidConnectNotification")
    /// Posted when a monitor is disconnected; the object is the `Screen`, no longer in `screens`.
    nonisolated public static let didDisconnectNotification = Notification.Name("MultiheadScreenDidDisconnectNotification")
    /// Posted when a screen's frame, mode or mode list changes; the object is the `Screen`.
    nonisolated public static let modeDidChangeNotification = Notification.Name("MultiheadScreenModeDidChangeNotification")
    /// Posted when a screen's brightness changes; the object is the `Screen`.
    nonisolated public static let brightnessDidChangeNotification = Notification.Name("MultiheadScreenBrightnessDidChangeNotification")
    /// Posted when another screen becomes the main screen (the primary monitor changed, or the main one
    /// left); the object is the new main `Screen`. Never posted for the stand-in.
    nonisolated public static let mainDidChangeNotification = Notification.Name("MultiheadScreenMainDidChangeNotification")
    /// The `userInfo` key of `modeDidChangeNotification` whose value is the `ScreenDescription` the screen
    /// had before the change.
    nonisolated public static let previousDescriptionKey = "previous"
}

extension Screen: CustomStringConvertible {
    /// "Screen(NAME)".
    nonisolated public var description: String { "Screen(\(name))" }
}

/// Why a screen operation was refused.
public enum ScreenError: Error, Equatable, CustomStringConvertible {
    /// The screen is no longer connected.
    case disconnected(String)
    /// The mode is not one of the screen's `availableModes`.
    case modeNotAvailable(ScreenMode, screen: String)
    /// No screen, monitor or output has this name (on the display, or in a server the kit changes).
    case noSuchScreen(String)
    /// The backend refused; the text says why.
    case refused(screen: String, reason: String)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .disconnected(let n): "screen \(n) is not connected"
        case .modeNotAvailable(let m, let n): "screen \(n) has no mode \(m)"
        case .noSuchScreen(let n): "no screen, monitor or output named \(n)"
        case .refused(let n, let why): "screen \(n) refused the change: \(why)"
        }
    }

    /// A stable name for the fault, for programs (the control socket, JSON): the case's name.
    public var code: String {
        switch self {
        case .disconnected: "disconnected"
        case .modeNotAvailable: "modeNotAvailable"
        case .noSuchScreen: "noSuchScreen"
        case .refused: "refused"
        }
    }
}
