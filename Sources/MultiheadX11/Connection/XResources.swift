import Foundation

/// The X resource database (what `xrdb` sets on the root window) as far as Multihead reads it: `Xft.dpi`,
/// which desktops set to say how many pixels a point is.
enum XResources {
    /// Pixels per point from a resource database's text: `Xft.dpi` / 96 (96 → 1, 144 → 1.5, 192 → 2); 1
    /// when it is absent or not a positive number.
    nonisolated static func scale(fromResources text: String) -> Double { desktopScale(fromResources: text) ?? 1 }

    /// The desktop's scale, `Xft.dpi` / 96; nil when the database sets none (or not a positive number).
    /// Taken as it is written: `ScreenScalePolicy` passes over one outside 0.5…8.
    nonisolated static func desktopScale(fromResources text: String) -> Double? {
        for line in text.split(whereSeparator: { $0 == "\n" }) {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "Xft.dpi",
                  let dpi = Double(parts[1].trimmingCharacters(in: .whitespaces)), dpi.isFinite, dpi > 0 else { continue }
            return dpi / 96
        }
        return nil
    }
}
