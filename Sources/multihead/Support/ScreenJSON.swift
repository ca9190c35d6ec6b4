import Foundation
import Multihead

/// A screen as the command line contract prints it in JSON.
struct ScreenJSON: Codable, Equatable {
    struct Frame: Codable, Equatable { var x, y, width, height: Int }
    struct Extent: Codable, Equatable { var width, height: Int }
    struct Mode: Codable, Equatable { var width, height: Int; var refreshRate: Double }

    var name: String
    var main: Bool
    var frame: Frame
    var physicalSize: Extent
    var scale: Double
    var currentMode: Mode?
    var modes: [Mode]

    @MainActor
    init(_ s: Screen, isMain: Bool) {
        name = s.name
        main = isMain
        frame = Frame(x: Int(s.frame.minX), y: Int(s.frame.minY), width: Int(s.frame.width), height: Int(s.frame.height))
        physicalSize = Extent(width: Int(s.physicalSize.width), height: Int(s.physicalSize.height))
        scale = s.scale
        currentMode = s.currentMode.map(Self.mode)
        modes = s.availableModes.map(Self.mode)
    }

    static func mode(_ m: ScreenMode) -> Mode {
        Mode(width: Int(m.size.width), height: Int(m.size.height), refreshRate: (m.refreshRate * 100).rounded() / 100)
    }
}

/// One line of `watch --json`.
struct ScreenEventJSON: Codable {
    var event: String
    var screen: ScreenJSON
}

/// One line of compact JSON.
func jsonLine<T: Encodable>(_ value: T) -> String {
    let e = JSONEncoder()
    e.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    guard let data = try? e.encode(value) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
}
