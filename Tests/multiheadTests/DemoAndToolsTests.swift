import Foundation
import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
import MultiheadX11
import Testing

/// The demo scene's colours (`SpinningTriangle`, `SceneWindow`).
enum SceneColors {
    static let background = Color(red: 0.3, green: 0.35, blue: 0.5)
    static let hud = Color(red: 0.3, green: 0.3, blue: 0.35)
}

@MainActor
@Suite("The demo and the server, mode and screenshot commands", .timeLimit(.minutes(2)))
struct DemoAndToolsTests {
    @Test("the headless tour exits 0 with a summary per step, a PNG per screen and step, and the event log")
    func headlessTour() async throws {
        let dir = NSTemporaryDirectory() + "mh-test-demo-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try await multihead(["demo", "--headless", "--output-directory", dir])
        #expect(r.status == 0, "\(r.stderr)")
        let steps: [String] = r.stdout.split(separator: "\n").filter { $0.hasPrefix("step ") }
            .map { String($0.prefix { $0 != ":" }) }
        let expected = ["step 1 launch", "step 2 plug", "step 3 mode", "step 4 click", "step 5 unplug", "step 6 hidpi"]
        #expect(steps == expected)
        let pngs = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".png") }
        // Two screens at launch, three after the plug, the mode change and the click, two after the unplug,
        // three with the panel.
        let expectedPNGs = 16
        #expect(pngs.count == expectedPNGs)
        let events = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/events.json"))) as? [[String: Any]])
        #expect(events.map { $0["event"] as? String } == ["connect", "modeChange", "disconnect", "connect"])
        #expect(events.allSatisfy { $0["screen"] as? String == "VIRTUAL-3" })
        // Decoded off the main actor, which every test of the suite shares (a 3840×2160 PNG among them).
        let shots = try await Self.pngs(["step2-plug-VIRTUAL-3", "step3-mode-VIRTUAL-3", "step3-mode-VIRTUAL-1",
                                         "step4-click-VIRTUAL-1", "step6-hidpi-VIRTUAL-3"], in: dir)
        let (placeholder, resized, before, after, panel) = (shots[0], shots[1], shots[2], shots[3], shots[4])
        // The placeholder: white with the dark "<no content>" text in the middle; the tapped control darker.
        #expect(placeholder.width == 1024 && placeholder.height == 768)
        #expect(placeholder.pixel(x: 10, y: 10) == 0xFFFFFF)
        // The GL scene in its corner (320×240 at 684, 508): its background, its triangle over the centre (the
        // triangle turns about a point inside it), its HUD label over the scene.
        #expect(r.stdout.contains("and a GL scene"))
        #expect(placeholder.pixel(x: 689, y: 743) == Bitmap.rgb(SceneColors.background))
        #expect(placeholder.pixel(x: 844, y: 628).map { $0 >> 16 == 0xFF } == true)
        #expect(placeholder.pixel(x: 990, y: 520) == Bitmap.rgb(SceneColors.hud))
        #expect((440..<584).contains { x in (374..<394).contains { y in (placeholder.pixel(x: x, y: y) ?? 0xFFFFFF) < 0x404040 } })
        // After the mode change the placeholder's layoutSubviews centred the label in the new 1280×1024.
        #expect(resized.width == 1280 && resized.height == 1024)
        #expect((570..<710).contains { x in (500..<524).contains { y in (resized.pixel(x: x, y: y) ?? 0xFFFFFF) < 0x404040 } })
        #expect(!(440..<584).contains { x in (374..<394).contains { y in (resized.pixel(x: x, y: y) ?? 0xFFFFFF) < 0x404040 } })
        // The screen list, laid out by its layoutSubviews: a third line of light text 34 points below the second.
        #expect((40..<400).contains { x in (288..<312).contains { y in (before.pixel(x: x, y: y) ?? 0) > 0xC0C0C0 } })
        #expect(before.pixel(x: 45, y: 95) != after.pixel(x: 45, y: 95))
        #expect(after.pixel(x: 400, y: 95) == before.pixel(x: 400, y: 95))
        // The 2× panel: the same placeholder, 1920×1080 points on 3840×2160 pixels, its text twice as tall.
        #expect(panel.width == 3840 && panel.height == 2160)
        // Off the main actor, which every test of the suite shares: a 3840×2160 scan is seconds in a debug
        // build under a sanitizer.
        let (oneXRows, twoXRows) = await onOwnThread { (Self.darkRows(placeholder), Self.darkRows(panel)) }
        let oneX = try #require(oneXRows), twoX = try #require(twoXRows)
        #expect(abs(twoX - 2 * oneX) <= 3, "text \(oneX) pixels tall at 1×, \(twoX) at 2×")
    }

    @Test("with no EGL the demo goes on: its GL scene shows its background, and the log and the step say why")
    func tourWithoutEGL() async throws {
        let dir = NSTemporaryDirectory() + "mh-test-demo-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // libglvnd with no vendor library: as on a machine without Mesa's EGL.
        let r = try await multihead(["demo", "--headless", "--output-directory", dir],
                                    environment: ["__EGL_VENDOR_LIBRARY_FILENAMES": dir + "/no-such-vendor.json"])
        #expect(r.status == 0, "\(r.stderr)")
        let step2 = r.stdout.split(separator: "\n").first { $0.hasPrefix("step 2 plug") } ?? ""
        #expect(step2.contains("its GL scene shows its background only (no EGL display for X server"))
        // One warning per view (the plug's and the panel's), not one per frame.
        #expect(r.stderr.components(separatedBy: "draws its background only").count - 1 == 2, "\(r.stderr)")
        let shot = try Bitmap(contentsOfPNG: dir + "/step2-plug-VIRTUAL-3.png")
        #expect(shot.pixel(x: 844, y: 628) == Bitmap.rgb(SceneColors.background))
        #expect(shot.pixel(x: 990, y: 520) == Bitmap.rgb(SceneColors.hud))
    }

    /// The tour's PNGs of these names (without ".png"), decoded on a thread of their own.
    static func pngs(_ names: [String], in dir: String) async throws -> [Bitmap] {
        try await onOwnThread { () throws -> [Bitmap] in try names.map { try Bitmap(contentsOfPNG: dir + "/\($0).png") } }
    }

    /// How many rows of a picture hold dark (text) pixels.
    nonisolated static func darkRows(_ b: Bitmap) -> Int? {
        // A plain loop over the raw pixels: generic slices and closures cost a debug build's every pixel.
        var rows = 0
        b.pixels.withUnsafeBufferPointer { p in
            for y in 0..<b.height {
                var i = y * b.width
                let end = i + b.width
                while i < end && p[i] >= 0x404040 { i += 1 }
                if i < end { rows += 1 }
            }
        }
        return rows == 0 ? nil : rows
    }

    @Test("the headless tour on --xorg: the third monitor is a cable (connect, a mode of its EDID, disconnect)")
    func headlessTourOnCables() async throws {
        let dir = NSTemporaryDirectory() + "mh-test-demo-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try await multihead(["demo", "--headless", "--xorg", "--output-directory", dir])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").filter { $0.hasPrefix("step ") }.count == 6)
        let events = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/events.json"))) as? [[String: Any]])
        #expect(events.map { $0["event"] as? String } == ["connect", "modeChange", "disconnect", "connect"])
        #expect(events.allSatisfy { $0["screen"] as? String == "HDMI-1" })
        let resized = try Bitmap(contentsOfPNG: dir + "/step3-mode-HDMI-1.png")
        #expect(resized.width == 1280 && resized.height == 1024)
        // The GL scene on the cable, drawn by Xorg's EGL (llvmpipe), in the corner of the new mode (940, 764).
        #expect(resized.pixel(x: 945, y: 979) == Bitmap.rgb(SceneColors.background))
        #expect(resized.pixel(x: 1100, y: 884).map { $0 >> 16 == 0xFF } == true)
        #expect(resized.pixel(x: 1246, y: 776) == Bitmap.rgb(SceneColors.hud))
        #expect(try await multihead(["demo", "--xorg", "--xorg-dummy"]).status == 64)
    }

    @Test("mode changes an output's mode and resizes a virtual monitor; screenshot writes the screen's PNG")
    func modeAndScreenshot() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [.init("DUMMY0", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let env = server.environment
        #expect(try await multihead(["mode", "DUMMY0", "800x600"], environment: env).status == 0)
        #expect(try await multihead(["plug", "VIRT", "320x200+1024+0"], environment: env).status == 0)
        #expect(try await multihead(["mode", "VIRT", "640x480"], environment: env).status == 0)
        let app = try server.makeApplication()
        #expect(app.screen(named: "DUMMY0")?.frame == Rect(x: 0, y: 0, width: 800, height: 600))
        #expect(app.screen(named: "VIRT")?.frame == Rect(x: 1024, y: 0, width: 640, height: 480))
        let w = Window(frame: Rect(x: 0, y: 0, width: 800, height: 600), screen: app.mainScreen)
        w.backgroundColor = .blue
        w.isHidden = false
        app.flush()
        let file = NSTemporaryDirectory() + "mh-test-shot-\(UUID().uuidString.prefix(8)).png"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let shot = try await multihead(["screenshot", "--screen", "DUMMY0", "-o", file], environment: env)
        #expect(shot.status == 0, "\(shot.stderr)")
        let png = try Bitmap(contentsOfPNG: file)
        #expect(png.width == 800 && png.height == 600 && png.pixel(x: 400, y: 300) == Bitmap.rgb(.blue))
        for bad in [["mode", "DUMMY0", "0x0"], ["mode", "NOPE", "800x600"], ["screenshot", "--screen", "NOPE", "-o", file],
                    ["screenshot", "-o", "picture.jpg"]] {
            let r = try await multihead(bad, environment: env)
            #expect(r.status == 64, "\(bad): \(r.status) \(r.stderr)")
        }
    }

    @Test("server --xorg-dummy prints a DISPLAY whose outputs are DUMMYn, and stops on SIGTERM")
    func serverCommand() async throws {
        let (p, out) = try launchMultihead(["server", "--xorg-dummy", "--monitors", "800x600,640x480"], environment: [:])
        let h = out.fileHandleForReading
        let text = await onOwnThread {
            var text = ""
            while !text.contains("PID=") {
                let d = h.availableData
                if d.isEmpty { break }
                text += String(decoding: d, as: UTF8.self)
            }
            return text
        }
        var env: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { env[String(parts[0])] = String(parts[1]) }
        }
        let r = try await multihead(["screens", "--json"], environment: ["DISPLAY": env["DISPLAY"] ?? "", "XAUTHORITY": env["XAUTHORITY"] ?? ""])
        #expect(r.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(json.map { $0["name"] as? String } == ["DUMMY0", "DUMMY1"])
        p.terminate()
        _ = await finish(p, reading: out)
        // 128 + SIGTERM, the conventional status of a program ended by that signal.
        #expect(p.terminationStatus == 143)
        let serverPID = Int32(env["PID"] ?? "") ?? 0
        #expect(serverPID > 0 && kill(serverPID, 0) != 0)
    }

    @Test("on a desktop the demo shows a window per screen and quits on q")
    func demoOnADesktop() async throws {
        let server = try await VirtualServer.start(monitors: [
            .init("MAIN", "1024x768+0+0", primary: true), .init("SIDE", "640x480+1024+0"),
        ])
        defer { server.stop() }
        let control = try server.controlConnection()
        let app = try server.makeApplication()
        let (p, out) = try launchMultihead(["demo"], environment: server.environment)
        // The placeholder on SIDE: white. One frame pushes both windows, but another client's screenshot
        // may come between the two puts: each screen is waited for on its own.
        #expect(try await waitFor(app) { (try? server.screenshot(of: "SIDE"))?.pixel(x: 10, y: 10) == 0xFFFFFF })
        // The main window's dark slate background, not the black of an empty root.
        func mainBackground() -> UInt32? { (try? server.screenshot(of: "MAIN"))?.pixel(x: 500, y: 700) }
        #expect(try await waitFor(app) { mainBackground().map { $0 != 0 } ?? false })
        let background = try #require(mainBackground())
        #expect(background != 0 && background & 0xC0C0C0 == 0, "\(String(background, radix: 16))")
        #expect(try control.mappedStackingOrder().count == 2)
        try server.type("q")
        let text = String(decoding: await finish(p, reading: out), as: UTF8.self)
        #expect(p.terminationStatus == 0)
        #expect(text.contains("2 screens"))
        #expect(try control.mappedStackingOrder().isEmpty)
    }

    @Test("under a real window manager (openbox): not reparented, a window per screen, q quits")
    func demoUnderOpenbox() async throws {
        let server = try await VirtualServer.start(monitors: [
            .init("MAIN", "1024x768+0+0", primary: true), .init("SIDE", "640x480+1024+0"),
        ])
        defer { server.stop() }
        let control = try server.controlConnection()
        let wm = Process()
        wm.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        wm.arguments = ["--pdeathsig", "TERM", "--", "/usr/bin/openbox"]
        wm.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }
        wm.standardOutput = FileHandle.nullDevice
        wm.standardError = FileHandle.nullDevice
        try launch(wm)
        func check() async throws {
            // openbox announces itself on the root window once it manages the screen.
            let app = try server.makeApplication()
            #expect(try await waitFor(app) { control.hasRootProperty("_NET_SUPPORTING_WM_CHECK") })
            // openbox's own override-redirect windows, if it shows any, are not the demo's.
            let before = Set(try control.mappedOverrideRedirectWindows())
            let (p, out) = try launchMultihead(["demo"], environment: server.environment)
            let reader = LineReader(out)
            #expect(await reader.waitFor("screens; q or Escape"))
            // Both windows are override-redirect children of the root: openbox put no frame around them.
            func demoWindows() -> Set<UInt> { Set((try? control.mappedOverrideRedirectWindows()) ?? []).subtracting(before) }
            #expect(try await waitFor(app) { demoWindows().count == 2 })
            let shown = demoWindows()
            #expect(try await waitFor(app) { (try? server.screenshot(of: "SIDE"))?.pixel(x: 10, y: 10) == 0xFFFFFF })
            // The main window has the keyboard: q reaches it although a window manager runs.
            try server.type("q")
            await exited(p)
            #expect(p.terminationStatus == 0)
            // The server destroys a client's windows once it has seen the client go.
            #expect(try await waitFor(app) { demoWindows().isDisjoint(with: shown) }, "\(before) \(shown) \(demoWindows())")
        }
        var failure: (any Error)?
        do { try await check() } catch { failure = error }
        kill(wm.processIdentifier, SIGKILL)
        await exited(wm)
        if let failure { throw failure }
    }

    /// Runs an app until a fact about another process holds (bounded; a fact, not a time).
    private func waitFor(_ app: Application, _ condition: () -> Bool) async throws -> Bool {
        await app.run(until: condition, timeout: .seconds(20))
    }
}
