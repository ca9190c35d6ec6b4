import Foundation
import Multihead
import MultiheadControl
import Testing

/// The JSON of one screen, as `screens --json` and `watch --json` print it.
@Suite("A screen in JSON")
struct ScreenJSONTests {
    @Test("an EDID's manufacturer, model and serial number are strings; without an EDID, null")
    func edidKeys() throws {
        let with = ScreenDescription(name: "DP-1", frame: Rect(x: 0, y: 0, width: 1920, height: 1080),
                                     physicalSize: Size(width: 597, height: 336), manufacturer: "DEL", model: "DELL U2720Q",
                                     serialNumber: "ABC123")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(ScreenJSON(with, isMain: true, mirrors: nil).json.text.utf8))
            as? [String: Any])
        #expect(object["manufacturer"] as? String == "DEL" && object["model"] as? String == "DELL U2720Q")
        #expect(object["serialNumber"] as? String == "ABC123")
        #expect(object["physicalSize"] as? [String: Int] == ["width": 597, "height": 336])
        let without = ScreenDescription(name: "V", frame: Rect(x: 0, y: 0, width: 640, height: 480))
        let bare = try #require(try JSONSerialization.jsonObject(with: Data(ScreenJSON(without, isMain: true, mirrors: nil).json.text.utf8))
            as? [String: Any])
        #expect(["manufacturer", "model", "serialNumber"].allSatisfy { bare[$0] is NSNull })
    }
}
