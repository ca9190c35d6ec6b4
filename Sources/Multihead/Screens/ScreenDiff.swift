/// One difference between two screen snapshots.
public enum ScreenChange: Hashable, Sendable {
    /// A monitor that was not there is there now.
    case connect(ScreenDescription)
    /// A monitor that was there is gone.
    case disconnect(ScreenDescription)
    /// The same monitor (by name) with another frame, mode or mode list.
    case modeChange(from: ScreenDescription, to: ScreenDescription)
    /// The same monitor with another brightness.
    case brightnessChange(from: ScreenDescription, to: ScreenDescription)
    /// Another monitor is the main screen now (the primary changed, or the one it was left).
    case mainChange(to: ScreenDescription)
}

/// The pure function that decides connect, disconnect and mode change: the only place that does.
public enum ScreenDiff {
    /// The changes that lead from `old` to `new`, matched by monitor name: connects first (in `new`'s
    /// order), then disconnects (in `old`'s order), then mode and brightness changes (brightness only
    /// where the hardware reports it), then a main change when the main screen (`ordered(_:).first`) is
    /// another real monitor. Equal snapshots give no change, however many X events led to them. The
    /// stand-in is never a change: it neither connects nor disconnects, and a main change to it is not
    /// announced (the disconnect of the last monitor says it all).
    public static func changes(from allOld: [ScreenDescription], to allNew: [ScreenDescription]) -> [ScreenChange] {
        let old = allOld.filter { !$0.isStandIn }, new = allNew.filter { !$0.isStandIn }
        var oldByName: [String: ScreenDescription] = [:]
        for d in old where oldByName[d.name] == nil { oldByName[d.name] = d }
        var newNames = Set<String>()
        var connects: [ScreenChange] = [], updates: [ScreenChange] = []
        for d in new where newNames.insert(d.name).inserted {
            guard let before = oldByName[d.name] else { connects.append(.connect(d)); continue }
            if d.modeDiffers(from: before) { updates.append(.modeChange(from: before, to: d)) }
            // Only hardware reports brightness; software dimming is the model's own and never in a snapshot.
            if d.hasHardwareBrightness, d.brightness != before.brightness {
                updates.append(.brightnessChange(from: before, to: d))
            }
        }
        var seen = Set<String>()
        let disconnects = old.filter { !newNames.contains($0.name) && seen.insert($0.name).inserted }
            .map(ScreenChange.disconnect)
        var main: [ScreenChange] = []
        if let to = ordered(new).first, to.name != ordered(old).first?.name { main = [.mainChange(to: to)] }
        return connects + disconnects + updates + main
    }

    /// For each screen of an ordered list, the name of the one it mirrors: the first before it with the same
    /// frame (UIKit's `mirroredScreen`), or nil.
    public static func mirrors(in ordered: [ScreenDescription]) -> [String?] {
        ordered.indices.map { i in ordered[..<i].first { $0.frame == ordered[i].frame }?.name }
    }

    /// Orders a snapshot as `Screen.screens` lists it: the main screen first (the primary monitor; if
    /// none, the one whose frame contains (0, 0); else the first), then the rest by (y, x, name).
    public static func ordered(_ screens: [ScreenDescription]) -> [ScreenDescription] {
        order(of: screens).map { screens[$0] }
    }

    /// `ordered(_:)` as indices into `screens`: the model compares a snapshot with its screens in this
    /// order without copying the descriptions into a new array.
    static func order(of screens: [ScreenDescription]) -> [Int] {
        guard !screens.isEmpty else { return [] }
        let mainIndex = screens.firstIndex(where: \.isPrimary)
            ?? screens.firstIndex(where: { $0.frame.contains(.zero) })
            ?? 0
        var rest = Array(screens.indices)
        rest.remove(at: mainIndex)
        rest.sort { i, j in
            let a = screens[i], b = screens[j]
            return (a.frame.minY, a.frame.minX, a.name) < (b.frame.minY, b.frame.minX, b.name)
        }
        return [mainIndex] + rest
    }
}
