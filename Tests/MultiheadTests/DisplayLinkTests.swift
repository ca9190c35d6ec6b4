@testable import Multihead
import MultiheadInMemory
import Testing

@MainActor
@Suite("Display links and brightness", .timeLimit(.minutes(3)))
struct DisplayLinkTests {
    @Test func callsBackAtTheScreensRateWithConsistentTimestamps() async throws {
        let (app, _) = try makeApp()
        var stamps: [(Double, Double)] = []
        let link = app.mainScreen.displayLink { l in stamps.append((l.timestamp, l.targetTimestamp)) }
        #expect(link.duration == 1.0 / 60)
        // A fact, not a time: 30 callbacks (the bound only keeps a broken link from hanging the suite).
        // Under a sanitizer the suite's other tests may hold the main actor for tens of seconds.
        await app.run(until: { stamps.count >= 30 }, timeout: .seconds(120))
        link.invalidate()
        #expect(stamps.count >= 30)
        for (t, target) in stamps { #expect(abs(target - t - 1.0 / 60) < 1e-9) }
        // Frames are on a 60 Hz grid: each step is a whole number of frames (missed ones are skipped).
        for (a, b) in zip(stamps, stamps.dropFirst()) {
            let frames = (b.0 - a.0) * 60
            #expect(abs(frames - frames.rounded()) < 1e-6 && frames.rounded() >= 1)
        }
    }

    @Test func preferredRatePauseAndInvalidate() async throws {
        let (app, _) = try makeApp()
        var count = 0
        let link = app.mainScreen.displayLink { _ in count += 1 }
        link.preferredFramesPerSecond = 10
        #expect(abs(link.duration - 0.1) < 1e-9)
        link.preferredFramesPerSecond = 1000
        #expect(link.duration == 1.0 / 60)
        link.preferredFramesPerSecond = 20
        await app.run(until: { count >= 3 }, timeout: .seconds(30))
        link.isPaused = true
        let paused = count
        await app.run(until: { false }, timeout: .milliseconds(200))
        #expect(count == paused)
        link.isPaused = false
        await app.run(until: { count > paused }, timeout: .seconds(30))
        #expect(count > paused)
        link.invalidate()
        let after = count
        await app.run(until: { false }, timeout: .milliseconds(150))
        #expect(count == after && !link.isValid)
    }

    @Test func stopsWhenItsScreenDisconnects() async throws {
        let (app, backend) = try makeApp()
        let ext = try #require(app.screen(named: "EXT"))
        var count = 0
        let link = ext.displayLink { _ in count += 1 }
        await app.run(until: { count >= 2 }, timeout: .seconds(30))
        backend.disconnect("EXT")
        #expect(!link.isValid)
        let after = count
        await app.run(until: { false }, timeout: .milliseconds(100))
        #expect(count == after)
    }

    @Test func hardwareBrightnessGoesToTheBackendSoftwareStaysInTheModel() throws {
        var hw = ScreenDescription(name: "HW", frame: Rect(x: 0, y: 0, width: 100, height: 100), isPrimary: true)
        hw.hasHardwareBrightness = true
        let backend = InMemoryBackend(screens: [hw, ScreenDescription(name: "SW", frame: Rect(x: 100, y: 0, width: 100, height: 100))])
        let app = try Application(backend: backend)
        let log = NotificationLog(app, label: label)
        let hwScreen = try #require(app.screen(named: "HW")), sw = try #require(app.screen(named: "SW"))
        hwScreen.brightness = 0.25
        #expect(backend.snapshot[0].brightness == 0.25 && hwScreen.softwareBrightness == 1)
        sw.brightness = 0.5
        #expect(sw.softwareBrightness == 0.5 && backend.snapshot[1].brightness == 1)
        // A later report from the backend does not undo either.
        backend.change("SW") { $0.frame.origin.y = 1 }
        #expect(sw.brightness == 0.5 && hwScreen.brightness == 0.25)
        hwScreen.wantsSoftwareDimming = true
        #expect(backend.snapshot[0].brightness == 1 && hwScreen.softwareBrightness == 0.25)
        // The hardware changed outside the model (xrandr --brightness): adopted, one notification.
        hwScreen.wantsSoftwareDimming = false
        backend.change("HW") { $0.brightness = 0.75 }
        #expect(hwScreen.brightness == 0.75)
        #expect(log.entries == ["brightness HW", "brightness SW", "mode SW", "brightness HW"])
    }

    @Test("UIKit's shape: a link runs from add(to:forMode:) until remove(from:forMode:); a frame rate range")
    func runLoopShape() async throws {
        let (app, _) = try makeApp()
        var count = 0, reference = 0
        let link = DisplayLink(screen: app.mainScreen) { _ in count += 1 }
        // Another link's frames are the clock: facts, not times.
        let clock = app.mainScreen.displayLink { _ in reference += 1 }
        defer { clock.invalidate(); link.invalidate() }
        await app.run(until: { reference >= 5 }, timeout: .seconds(30))
        #expect(count == 0 && !link.isScheduled)
        link.add(to: .main, forMode: .common)
        await app.run(until: { count >= 3 }, timeout: .seconds(30))
        #expect(count >= 3 && link.isScheduled)
        link.remove(from: .main, forMode: .common)
        let stopped = count
        let seen = reference
        await app.run(until: { reference >= seen + 5 }, timeout: .seconds(30))
        #expect(count == stopped)
        link.preferredFrameRateRange = FrameRateRange(minimum: 10, maximum: 30, preferred: 20)
        #expect(link.framesPerSecond == 20 && abs(link.duration - 0.05) < 1e-9)
        link.preferredFrameRateRange = FrameRateRange(minimum: 10, maximum: 500)
        #expect(link.framesPerSecond == 60)
        link.preferredFrameRateRange = .default
        link.preferredFramesPerSecond = 15
        #expect(link.framesPerSecond == 15)
    }

    /// A link's frame is the app's frame: it handles the backend's events first and flushes once at its
    /// end. A link that ends itself in its callback still ends the frame, so later changes flush as before.
    @Test("a frame of a link that invalidates itself ends: a change after it is presented in its own turn")
    func linkEndingItselfEndsItsFrame() async throws {
        let (app, backend) = try makeApp()
        let w = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100), screen: app.mainScreen)
        w.isHidden = false
        var frames = 0
        let link = app.mainScreen.displayLink { l in
            frames += 1
            w.backgroundColor = .red
            l.invalidate()
        }
        defer { link.invalidate() }
        // Only the main queue runs here (no run(until:), which flushes by itself).
        while frames == 0 { try await Task.sleep(for: .milliseconds(5)) }
        // The frame's change was presented by the frame's end.
        #expect(backend.shown.last?.redrawn == true)
        let presented = backend.presentations
        w.backgroundColor = .blue
        for _ in 0..<400 where backend.presentations == presented { try await Task.sleep(for: .milliseconds(5)) }
        #expect(backend.presentations > presented, "a change after the link's frame was never flushed")
    }
}
