import Foundation
import Multihead

/// A screen as the command line contract prints it in JSON: the one statement of the schema's fields,
/// written by `JSONLine` below (every key always present: `mirrors` and `currentMode` as null when absent).
struct ScreenJSON: Equatable {
    struct Frame: Equatable { var x, y, width, height: Int }
    struct Extent: Equatable { var width, height: Int }
    struct Mode: Equatable { var width, height: Int; var refreshRate: Double; var interlaced: Bool }

    var name: String
    var main: Bool
    var primary: Bool
    var standIn: Bool
    var outputs: [String]
    /// The name of the screen this one mirrors (same frame, listed earlier), or null.
    var mirrors: String?
    var rotation: Int
    var reflection: String
    var frame: Frame
    var physicalSize: Extent
    /// What the monitor's EDID says (null without one).
    var manufacturer: String?
    var model: String?
    var serialNumber: String?
    var scale: Double
    var currentMode: Mode?
    var modes: [Mode]

    /// A model screen: what the server last described, with the model's mirror.
    @MainActor
    init(_ s: Screen, isMain: Bool) {
        self.init(s.snapshot, isMain: isMain, mirrors: s.mirrored?.name)
    }

    /// A screen as the server described it: what `screens` prints without an application.
    init(_ d: ScreenDescription, isMain: Bool, mirrors: String?) {
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

    static func frame(_ r: Rect) -> Frame {
        Frame(x: Int(r.minX), y: Int(r.minY), width: Int(r.width), height: Int(r.height))
    }

    static func mode(_ m: ScreenMode) -> Mode {
        Mode(width: Int(m.size.width), height: Int(m.size.height), refreshRate: (m.refreshRate * 100).rounded() / 100,
             interlaced: m.isInterlaced)
    }
}

/// One line of `watch --json`.
struct ScreenEventJSON {
    /// What a screen was before a mode change: a move changes only the frame.
    struct Previous: Equatable {
        var frame: ScreenJSON.Frame
        var currentMode: ScreenJSON.Mode?
        var scale: Double
    }

    var event: String
    var screen: ScreenJSON
    var previous: Previous?

    @MainActor
    init(_ e: ScreenEvent, app: Application) {
        event = e.name
        screen = ScreenJSON(e.screen, isMain: e.screen === app.mainScreen)
        if case .modeChange(_, let before) = e {
            previous = Previous(frame: ScreenJSON.frame(before.frame), currentMode: before.currentMode.map(ScreenJSON.mode),
                                scale: before.scale)
        }
    }
}

/// What can be written as one line of compact JSON.
protocol JSONLine {
    /// The value as JSON.
    var json: JSONText { get }
}

extension ScreenJSON.Frame: JSONLine {
    var json: JSONText { .object(["x": .int(x), "y": .int(y), "width": .int(width), "height": .int(height)]) }
}

extension ScreenJSON.Extent: JSONLine {
    var json: JSONText { .object(["width": .int(width), "height": .int(height)]) }
}

extension ScreenJSON.Mode: JSONLine {
    var json: JSONText {
        .object(["width": .int(width), "height": .int(height), "refreshRate": .number(refreshRate), "interlaced": .bool(interlaced)])
    }
}

extension ScreenJSON: JSONLine {
    var json: JSONText {
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
    var json: JSONText {
        var members: [(key: String, value: JSONText)] = [("event", .string(event)), ("screen", screen.json)]
        if let previous {
            members.append(("previous", .object(["frame": previous.frame.json, "currentMode": previous.currentMode?.json ?? .null,
                                                 "scale": .number(previous.scale)])))
        }
        return .members(members)
    }
}

extension Array: JSONLine where Element: JSONLine {
    var json: JSONText { .array(map(\.json)) }
}

