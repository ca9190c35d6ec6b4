import Multihead
import Testing

@Suite("The snapshot diff, a pure function")
struct ScreenDiffTests {
    let a = ScreenDescription(name: "A", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), isPrimary: true)
    let b = ScreenDescription(name: "B", frame: Rect(x: 1920, y: 0, width: 1280, height: 720))
    let c = ScreenDescription(name: "C", frame: Rect(x: 0, y: 1080, width: 800, height: 600))

    @Test func equalSnapshotsGiveNothing() {
        #expect(ScreenDiff.changes(from: [a, b], to: [a, b]).isEmpty)
        #expect(ScreenDiff.changes(from: [a, b], to: [b, a]).isEmpty)
        #expect(ScreenDiff.changes(from: [], to: []).isEmpty)
    }

    @Test func connectsThenDisconnectsThenModeChanges() {
        var a2 = a
        a2.frame.size = Size(width: 1280, height: 1024)
        a2.currentMode = ScreenMode(width: 1280, height: 1024)
        let changes = ScreenDiff.changes(from: [a, b], to: [c, a2])
        #expect(changes == [.connect(c), .disconnect(b), .modeChange(from: a, to: a2)])
    }

    @Test func sameNameNewFrameIsOneModeChange() {
        var b2 = b
        b2.frame.origin.x = 2000
        #expect(ScreenDiff.changes(from: [a, b], to: [a, b2]) == [.modeChange(from: b, to: b2)])
    }

    @Test func physicalSizeAloneIsNoChange() {
        var b2 = b
        b2.physicalSize = Size(width: 339, height: 190)
        #expect(ScreenDiff.changes(from: [a, b], to: [a, b2]).isEmpty)
    }

    @Test func primaryFlagAloneIsNoModeChange() {
        var a2 = a
        a2.physicalSize = Size(width: 500, height: 300)
        #expect(ScreenDiff.changes(from: [a, b], to: [a2, b]).isEmpty)
    }

    @Test func hardwareBrightnessAloneIsABrightnessChange() {
        var b1 = b
        b1.hasHardwareBrightness = true
        var b2 = b1
        b2.brightness = 0.5
        #expect(ScreenDiff.changes(from: [a, b1], to: [a, b2]) == [.brightnessChange(from: b1, to: b2)])
    }

    @Test func brightnessWithoutHardwareIsTheModelsAndNoChange() {
        var dimmed = b
        dimmed.brightness = 0.5
        #expect(ScreenDiff.changes(from: [a, dimmed], to: [a, b]).isEmpty)
    }

    @Test func duplicatesByNameCountOnce() {
        #expect(ScreenDiff.changes(from: [], to: [a, a]) == [.connect(a), .mainChange(to: a)])
        #expect(ScreenDiff.changes(from: [a, a], to: []) == [.disconnect(a)])
    }

    @Test func orderingIsMainThenYThenX() {
        let d = ScreenDescription(name: "D", frame: Rect(x: -800, y: 0, width: 800, height: 600))
        #expect(ScreenDiff.ordered([c, b, d, a]).map(\.name) == ["A", "D", "B", "C"])
        // Without a primary, the one containing (0, 0) is main.
        var a2 = a
        a2.isPrimary = false
        #expect(ScreenDiff.ordered([c, b, a2]).map(\.name) == ["A", "B", "C"])
        // Without either, the first.
        #expect(ScreenDiff.ordered([b, c]).map(\.name) == ["B", "C"])
    }

    @Test("the stand-in is never announced: all monitors off, then one on, counts only real monitors")
    func standInIsNeverAnnounced() {
        let stand = ScreenDescription.standIn(size: Size(width: 1024, height: 768))
        #expect(stand.isStandIn && !stand.isPrimary)
        // Every monitor off in one go: disconnects only.
        #expect(ScreenDiff.changes(from: [a, b], to: [stand]) == [.disconnect(a), .disconnect(b)])
        // One comes back: a connect and, as it is the main screen now, a main change; nothing for the stand-in.
        #expect(ScreenDiff.changes(from: [stand], to: [b]) == [.connect(b), .mainChange(to: b)])
        // The stand-in changing size (the root grew) is no event.
        #expect(ScreenDiff.changes(from: [stand], to: [.standIn(size: Size(width: 64, height: 64))]).isEmpty)
    }

    @Test("a new primary, or the main screen leaving, is one main change to the new main screen, last")
    func mainChange() {
        var b2 = b
        b2.isPrimary = true
        var a2 = a
        a2.isPrimary = false
        #expect(ScreenDiff.changes(from: [a, b], to: [a2, b2]) == [.mainChange(to: b2)])
        #expect(ScreenDiff.changes(from: [a, b], to: [b]) == [.disconnect(a), .mainChange(to: b)])
        // Same main, nothing.
        #expect(ScreenDiff.changes(from: [a, b], to: [a, b]).isEmpty)
    }

    @Test func geometryParsing() {
        #expect(Rect(geometry: "1280x720+1920+0") == Rect(x: 1920, y: 0, width: 1280, height: 720))
        #expect(Rect(geometry: "800x600") == Rect(x: 0, y: 0, width: 800, height: 600))
        #expect(Rect(geometry: "800x600-10+5") == Rect(x: -10, y: 5, width: 800, height: 600))
        for bad in ["", "x", "800", "0x600", "800x-1", "nanx600", "800x600+1", "800x600+a+b", "infx5",
                    "100x100+0x1A+0", "0x10x5", "1e3x5", "100x100+1e2+0"] {
            #expect(Rect(geometry: bad) == nil, "\(bad)")
        }
    }
}
