@testable import Multihead
import MultiheadInMemory
import Testing

@MainActor
@Suite("A screen mode is its values, as in UIKit")
struct ScreenModeTests {
    @Test("modes with the same values are equal and hash alike, whatever the backend's identifier")
    func equalityByValue() {
        let listed = ScreenMode(width: 1280, height: 720, refreshRate: 59.94, backendID: 0x4a)
        let built = ScreenMode(width: 1280, height: 720, refreshRate: 59.94)
        #expect(listed == built)
        #expect(listed.hashValue == built.hashValue)
        #expect(listed != ScreenMode(width: 1280, height: 720, refreshRate: 60))
        #expect(listed != ScreenMode(width: 1280, height: 720, refreshRate: 59.94, isInterlaced: true))
    }

    @Test("a mode built from UIKit's values is set, and the backend gets the screen's own mode")
    func setByValue() throws {
        let hz60 = ScreenMode(width: 1920, height: 1080, refreshRate: 60, backendID: 7)
        let hz50 = ScreenMode(width: 1280, height: 720, refreshRate: 50, backendID: 8)
        let backend = InMemoryBackend(screens: [ScreenDescription(
            name: "MAIN", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), isPrimary: true,
            modes: [hz60, hz50], currentMode: hz60)])
        let app = try Application(backend: backend)
        try app.mainScreen.setCurrentMode(ScreenMode(width: 1280, height: 720, refreshRate: 50))
        #expect(app.mainScreen.currentMode == hz50)
        #expect(app.mainScreen.currentMode?.backendID == 8)
        #expect(throws: ScreenError.self) { try app.mainScreen.setCurrentMode(ScreenMode(width: 1280, height: 720, refreshRate: 60)) }
    }
}
