import Foundation
import Multihead

/// A screen as the command line contract prints it in JSON: the one statement of the schema's fields,
/// written by `JSONLine` below (every key always present: `mirrors` and `currentMode` as null when absent).
/// What `ControlConnection.screens()` reads back.
public struct ScreenJSON: Equatable, Sendable {
    /// A rectangle in the desktop's pixels.
    public struct Frame: Equatable, Sendable {
        /// The left edge, the top edge, the width and the height.
        public var x, y, width, height: Int
        package init(x: Int, y: Int, width: Int, height: Int) { (self.x, self.y, self.width, self.height) = (x, y, width, height) }
    }
    /// A size in millimetres.
    public struct Extent: Equatable, Sendable {
        /// The width and the height.
        public var width, height: Int
        package init(width: Int, height: Int) { (self.width, self.height) = (width, height) }
    }
    /// A video mode.
    public struct Mode: Equatable, Sendable {
        /// The size in pixels.
        public var width, height: Int
        /// Hertz, to two decimals.
        public var refreshRate: Double
        /// Whether it is interlaced.
        public var interlaced: Bool
        package init(width: Int, height: Int, refreshRate: Double, interlaced: Bool) {
            (self.width, self.height, self.refreshRate, self.interlaced) = (width, height, refreshRate, interlaced)
        }
    }

    /// The screen's name: the RandR monitor's, such as DP-1.
    public var name: String
    /// Whether it is the main screen (listed first).
    public var main: Bool
    /// Whether it is RandR's primary.
    public var primary: Bool
    /// Whether it stands in for no monitor at all (the root window's size).
    public var standIn: Bool
    /// The outputs (connectors) it shows.
    public var outputs: [String]
    /// The name of the screen this one mirrors (same frame, listed earlier), or null.
    public var mirrors: String?
    /// How it is turned, in degrees counter-clockwise (0, 90, 180, 270).
    public var rotation: Int
    /// Its reflection: "none", "x", "y" or "xy".
    public var reflection: String
    /// Where it is on the desktop.
    public var frame: Frame
    /// Its size in millimetres (0 by 0 when unknown).
    public var physicalSize: Extent
    /// What the monitor's EDID says (null without one).
    public var manufacturer: String?
    /// The model's name its EDID gives.
    public var model: String?
    /// The serial number its EDID gives.
    public var serialNumber: String?
    /// Its scale (1 on X, whose outputs have none).
    public var scale: Double
    /// The mode it shows, if any.
    public var currentMode: Mode?
    /// The modes it offers.
    public var modes: [Mode]

    /// The screens as the contract lists them: in the model's order (main first), with its mirror rule.
    package static func rows(_ descriptions: [ScreenDescription]) -> [ScreenJSON] {
        let screens = ScreenDiff.ordered(descriptions)
        return zip(screens, ScreenDiff.mirrors(in: screens)).enumerated().map { i, pair in
            ScreenJSON(pair.0, isMain: i == 0, mirrors: pair.1)
        }
    }

    /// A model screen: what the server last described, with the model's mirror.
    @MainActor
    package init(_ s: Screen, isMain: Bool) {
        self.init(s.snapshot, isMain: isMain, mirrors: s.mirrored?.name)
    }

    /// A screen as the server described it: what `screens` prints without an application.
    package init(_ d: ScreenDescription, isMain: Bool, mirrors: String?) {
        name = d.name
        main = isMain
        primary = d.isPrimary
        standIn = d.isStandIn
        outputs = d.outputs
        self.mirrors = mirrors
        rotation = d.rotation
        reflection = d.reflection.rawValue
        frame = Self.frame(d.frame)
        physicalSize = Extent(width: Int(d.physicalSize.width), height: Int(d.physicalSize.height))
        manufacturer = d.manufacturer
        model = d.model
        serialNumber = d.serialNumber
        scale = d.scale
        currentMode = d.currentMode.map(Self.mode)
        modes = d.modes.map(Self.mode)
    }

    package static func frame(_ r: Rect) -> Frame {
        Frame(x: Int(r.minX), y: Int(r.minY), width: Int(r.width), height: Int(r.height))
    }

    package static func mode(_ m: ScreenMode) -> Mode {
        Mode(width: Int(m.size.width), height: Int(m.size.height), refreshRate: (m.refreshRate * 100).rounded() / 100,
             interlaced: m.isInterlaced)
    }
}

/// One line of `watch --json`.
package struct ScreenEventJSON {
    /// What a screen was before a mode change: a move changes only the frame.
    package struct Previous: Equatable {
        package var frame: ScreenJSON.Frame
        package var currentMode: ScreenJSON.Mode?
        package var scale: Double
    }

    package var event: String
    package var screen: ScreenJSON
    package var previous: Previous?
    /// The configuration serial of the read that posted the event (docs/control-socket.md).
    package var configurationSerial: Int?

    @MainActor
    package init(_ e: ScreenEvent, app: Application, configurationSerial: Int? = nil) {
        self.configurationSerial = configurationSerial
        event = e.name
        screen = ScreenJSON(e.screen, isMain: e.screen === app.mainScreen)
        if case .modeChange(_, let before) = e {
            previous = Previous(frame: ScreenJSON.frame(before.frame), currentMode: before.currentMode.map(ScreenJSON.mode),
                                scale: before.scale)
        }
    }
}

/// What can be written as one line of compact JSON.
package protocol JSONLine {
    /// The value as JSON.
    var json: JSONText { get }
}

extension ScreenJSON.Frame: JSONLine {
    package var json: JSONText { .object(["x": .int(x), "y": .int(y), "width": .int(width), "height": .int(height)]) }
}

extension ScreenJSON.Extent: JSONLine {
    package var json: JSONText { .object(["width": .int(width), "height": .int(height)]) }
}

extension ScreenJSON.Mode: JSONLine {
    package var json: JSONText {
        .object(["width": .int(width), "height": .int(height), "refreshRate": .number(refreshRate), "interlaced": .bool(interlaced)])
    }
}

extension ScreenJSON: JSONLine {
    package var json: JSONText {
        .object([
            "name": .string(name), "main": .bool(main), "primary": .bool(primary), "standIn": .bool(standIn),
            "outputs": .array(outputs.map(JSONText.string)), "mirrors": mirrors.map(JSONText.string) ?? .null,
            "rotation": .int(rotation), "reflection": .string(reflection), "frame": frame.json,
            "physicalSize": physicalSize.json, "manufacturer": manufacturer.map(JSONText.string) ?? .null,
            "model": model.map(JSONText.string) ?? .null, "serialNumber": serialNumber.map(JSONText.string) ?? .null,
            "scale": .number(scale), "currentMode": currentMode?.json ?? .null,
            "modes": .array(modes.map(\.json)),
        ])
    }
}

extension ScreenEventJSON: JSONLine {
    package var json: JSONText {
        var members: [(key: String, value: JSONText)] = [("event", .string(event)), ("screen", screen.json)]
        if let previous {
            members.append(("previous", .object(["frame": previous.frame.json, "currentMode": previous.currentMode?.json ?? .null,
                                                 "scale": .number(previous.scale)])))
        }
        if let configurationSerial { members.append(("configurationSerial", .int(configurationSerial))) }
        return .members(members)
    }
}

extension Array: JSONLine where Element: JSONLine {
    package var json: JSONText { .array(map(\.json)) }
}

