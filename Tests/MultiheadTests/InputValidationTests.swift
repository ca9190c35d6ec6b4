import Foundation
@testable import Multihead
import MultiheadInMemory
import Testing

/// Doubles a user passes: non-finite and out-of-range values are refused or clamped, never a trap.
@MainActor
@Suite("Non-finite and out-of-range numbers from the user")
struct InputValidationTests {
    @Test("a frame-rate range with NaN, infinite or huge rates: the link runs at a rate within 1…the screen's, no trap",
          arguments: [Float.nan, .infinity, -.infinity, 1e30, -5])
    func frameRateRange(bad: Float) throws {
        let (app, _) = try makeApp(extra: false)
        let link = DisplayLink(screen: app.mainScreen) { _ in }
        defer { link.invalidate() }
        let maxFPS = app.mainScreen.maximumFramesPerSecond
        for range in [FrameRateRange(minimum: bad, maximum: 60), FrameRateRange(minimum: 30, maximum: bad),
                      FrameRateRange(minimum: 10, maximum: 60, preferred: bad)] {
            link.preferredFrameRateRange = range
            #expect((1...maxFPS).contains(link.framesPerSecond), "\(range)")
            #expect(range.minimum.isFinite && range.minimum >= 0 && range.maximum.isFinite && range.maximum >= 0)
            #expect(range.preferred.map { $0.isFinite && $0 >= 0 } ?? true)
        }
        var range = FrameRateRange(minimum: 10, maximum: 20)
        range.minimum = bad
        range.maximum = bad
        range.preferred = bad
        link.preferredFrameRateRange = range
        #expect((1...maxFPS).contains(link.framesPerSecond))
        #expect(range.minimum.isFinite && range.maximum.isFinite && (range.preferred?.isFinite ?? true))
    }

    @Test("a font size that is NaN, infinite, zero, negative or huge: the font keeps a drawable size",
          arguments: [Double.nan, .infinity, -.infinity, 0, -3, 1e300])
    func fontSize(bad: Double) {
        let font = Font(pointSize: bad)
        #expect(font.pointSize.isFinite && font.pointSize > 0 && font.pointSize <= Font.maximumPointSize)
        var set = Font(pointSize: 12)
        set.pointSize = bad
        #expect(set.pointSize.isFinite && set.pointSize > 0 && set.pointSize <= Font.maximumPointSize)
        let label = Label(frame: Rect(x: 0, y: 0, width: 100, height: 20))
        label.text = "Hello"
        label.fontSize = bad
        #expect(label.font.pointSize.isFinite && label.font.pointSize > 0)
        label.font = font
        #expect(label.intrinsicContentSize.width.isFinite)
    }

    @Test("a colour component that is NaN or infinite becomes 0, one out of range is clamped, set or made",
          arguments: [Double.nan, .infinity, -.infinity, 7, -7])
    func colour(bad: Double) {
        let made = Color(red: bad, green: bad, blue: bad, alpha: bad)
        var set = Color.white
        set.red = bad
        set.green = bad
        set.blue = bad
        set.alpha = bad
        for c in [made, set] {
            for v in [c.red, c.green, c.blue, c.alpha] { #expect(v.isFinite && (0...1).contains(v)) }
        }
    }

    @Test("animation durations and delays that are NaN or infinite: the change happens, the completion runs")
    func animationTimes() async throws {
        let (app, _) = try makeApp(extra: false)
        let w = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), screen: app.mainScreen)
        w.isHidden = false
        let v = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        w.addSubview(v)
        var done: [Bool] = []
        View.animate(withDuration: .nan, delay: .infinity, options: [], animations: { v.alpha = 0.5 }, completion: { done.append($0) })
        #expect(v.alpha == 0.5)
        app.frameClock.frame()
        #expect(done == [true])
    }
}
