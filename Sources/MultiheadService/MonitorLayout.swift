import ArgumentParser
import Multihead
import MultiheadControl
import MultiheadTesting

/// A layout of monitors as a person gives it: sizes placed left to right from (0, 0), the first primary.
/// The one rule for `--monitors`, the control socket's `lease` and the pytest plugin's marker (which sends
/// its layout to `lease` or `--monitors`): at least one size, each `WxH` in whole pixels up to 16384, no
/// empty entry, and no more monitors than the server kind has outputs.
package enum MonitorLayout {
    /// The sizes of a comma-separated text (`1920x1080,1280x720`); an empty entry is kept, and refused.
    package static func monitors(_ text: String, kind: VirtualServer.Kind, label: String = "--monitors") throws -> [VirtualServer.Monitor] {
        try monitors(text.split(separator: ",", omittingEmptySubsequences: false).map(String.init), kind: kind, label: label)
    }

    /// The layout of these sizes, or a `ValidationError` that starts with `label` and quotes the entry.
    package static func monitors(_ sizes: [String], kind: VirtualServer.Kind, label: String = "--monitors") throws -> [VirtualServer.Monitor] {
        guard !sizes.isEmpty else { throw ValidationError("\(label) needs at least one size, such as 1920x1080") }
        var x = 0.0
        return try sizes.enumerated().map { i, part in
            guard let r = try? pixelGeometry(part, example: "1920x1080"), r.origin == .zero, r.width <= 16384, r.height <= 16384 else {
                throw ValidationError("\(label): \"\(part.terminalEscaped)\" is not a size like 1920x1080 in whole pixels, at most 16384x16384")
            }
            defer { x += r.width }
            return .init(name: try name(i, kind: kind, label: label), frame: Rect(x: x, y: 0, width: r.width, height: r.height), primary: i == 0)
        }
    }

    /// The name of the `i`th monitor on a server of this kind, as its implementation names its outputs
    /// (the compositor's as Multihead's Xorg driver's: DP-1…DP-8, then HDMI-1…HDMI-8; 16 at most).
    private static func name(_ i: Int, kind: VirtualServer.Kind, label: String) throws -> String {
        guard let name = kind.monitorName(at: i) else { throw ValidationError("\(label): \(kind.outputsLimit)") }
        return name
    }
}
