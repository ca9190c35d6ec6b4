import Foundation
import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Testing

@MainActor
@Suite("Screenshots through a shared segment read what the socket reads", .timeLimit(.minutes(3)))
struct ScreenshotReadTests {
    @Test("a monitor and odd rectangles read through MIT-SHM agree with one-pixel reads over the socket, edges included")
    func sharedReadsAgreeWithSocketReads() async throws {
        let (server, app, _) = try await startX11App(monitors: [.init("MAIN", "640x480+0+0", primary: true)])
        defer { server.stop() }
        // Four colours in four quadrants, so that a read shifted or sheared by a row's length shows.
        let w = Window(frame: Rect(x: 0, y: 0, width: 640, height: 480), screen: app.mainScreen)
        w.backgroundColor = .white
        for (i, colour) in [Color.red, .green, .blue, Color(red: 1, green: 1, blue: 0)].enumerated() {
            let v = View(frame: Rect(x: Double(i % 2) * 320, y: Double(i / 2) * 240, width: 320, height: 240))
            v.backgroundColor = colour
            w.addSubview(v)
        }
        w.isHidden = false
        try app.synchronize()
        let c = try server.controlConnection()
        func socketPixel(_ x: Int, _ y: Int) throws -> UInt32? {
            // One pixel: below the shared path's threshold, read with XGetImage.
            try c.screenshot(of: Rect(x: Double(x), y: Double(y), width: 1, height: 1)).pixels.first
        }
        let whole = try server.screenshot(of: "MAIN")
        #expect(whole.width == 640 && whole.height == 480)
        for (x, y) in [(0, 0), (319, 0), (320, 0), (639, 0), (0, 239), (0, 240), (639, 479), (321, 241), (100, 400)] {
            #expect(whole.pixel(x: x, y: y) == (try socketPixel(x, y)), "at \(x),\(y)")
        }
        // A rectangle of an odd width at an odd place: its rows are not the root's.
        let part = try c.screenshot(of: Rect(x: 301, y: 229, width: 333, height: 77))
        #expect(part.width == 333 && part.height == 77)
        for (x, y) in [(0, 0), (18, 10), (19, 11), (332, 76), (200, 50), (332, 0), (0, 76)] {
            #expect(part.pixel(x: x, y: y) == (try socketPixel(301 + x, 229 + y)), "at \(x),\(y) of the part")
        }
        #expect(part.pixel(x: 0, y: 0) == 0xFF0000 && part.pixel(x: 332, y: 76) == 0xFFFF00)
        withExtendedLifetime(w) {}
    }
}
