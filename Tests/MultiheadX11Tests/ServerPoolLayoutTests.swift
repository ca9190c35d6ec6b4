import Foundation
import Multihead
@testable import MultiheadServerControl
@testable import MultiheadTesting
@testable import MultiheadX11
import Testing

/// A warm server keeps the layout its last test asked for: the next test asking for the same one takes
/// it as it is, one asking for another gets it reset to fresh and plugged. Each test uses a framebuffer
/// size of its own, so that no other test running beside it shares its pool.
@MainActor
@Suite("Warm servers and their layouts", .timeLimit(.minutes(3)))
struct ServerPoolLayoutTests {
    /// The monitors a client sees: name, frame and whether it is the primary one, by name.
    static func monitors(_ server: VirtualServer) throws -> [String] {
        let c = try server.controlConnection()
        return ServerControl.liveMonitors(try c.readState())
            .map { "\($0.name) \(Int($0.frame.width))x\(Int($0.frame.height))+\(Int($0.frame.minX))+\(Int($0.frame.minY))\($0.primary ? " primary" : "")" }
            .sorted()
    }

    @Test("the same layout again, another layout, then the first again: each test sees its own layout and nothing else")
    func layoutsFollowTheTests() async throws {
        let fb = Size(width: 7680, height: 4320 + 21)
        let one: [VirtualServer.Monitor] = [.init("MAIN", "1280x720+0+0", primary: true)]
        let two: [VirtualServer.Monitor] = [.init("LEFT", "1024x768+0+0"), .init("RIGHT", "800x600+1024+0", primary: true)]
        let first = try await VirtualServer.start(monitors: one, framebuffer: fb)
        let display = first.display
        #expect(try Self.monitors(first) == ["MAIN 1280x720+0+0 primary"])
        try first.plug("TV", "1920x1080+1280+0")
        first.stop()

        let again = try await VirtualServer.start(monitors: one, framebuffer: fb)
        #expect(again.isWarm && again.display == display, "the last reset refused left: \(ServerPool.shared.lastRefusal)")
        #expect(try Self.monitors(again) == ["MAIN 1280x720+0+0 primary"])
        again.stop()

        let other = try await VirtualServer.start(monitors: two, framebuffer: fb)
        #expect(other.isWarm && other.display == display, "the last reset refused left: \(ServerPool.shared.lastRefusal)")
        #expect(try Self.monitors(other) == ["LEFT 1024x768+0+0", "RIGHT 800x600+1024+0 primary"])
        other.stop()

        let back = try await VirtualServer.start(monitors: one, framebuffer: fb)
        defer { back.stop() }
        #expect(back.isWarm && back.display == display)
        #expect(try Self.monitors(back) == ["MAIN 1280x720+0+0 primary"])
    }

    @Test("a test that unplugs a monitor of its own layout is followed by one that finds the layout whole")
    func unpluggedLayoutMonitorComesBack() async throws {
        let fb = Size(width: 7680, height: 4320 + 22)
        let layout: [VirtualServer.Monitor] = [.init("MAIN", "1280x720+0+0", primary: true), .init("SIDE", "800x600+1280+0")]
        let first = try await VirtualServer.start(monitors: layout, framebuffer: fb)
        try first.unplug("SIDE")
        try first.plug("MAIN", "640x480+0+0")
        let changed = try Self.monitors(first)
        #expect(changed.count == 1 && changed[0].hasPrefix("MAIN 640x480+0+0"), "\(changed)")
        first.stop()
        let second = try await VirtualServer.start(monitors: layout, framebuffer: fb)
        defer { second.stop() }
        #expect(second.isWarm, "the last reset refused left: \(ServerPool.shared.lastRefusal)")
        #expect(try Self.monitors(second) == ["MAIN 1280x720+0+0 primary", "SIDE 800x600+1280+0"])
    }

    /// The entries of an X authority file as libXau reads them: display number → cookie.
    static func entries(_ path: String) throws -> [String: [UInt8]] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var i = 0, out: [String: [UInt8]] = [:]
        func field() throws -> [UInt8] {
            guard i + 2 <= bytes.count else { throw CocoaError(.fileReadCorruptFile) }
            let n = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard i + 2 + n <= bytes.count else { throw CocoaError(.fileReadCorruptFile) }
            defer { i += 2 + n }
            return Array(bytes[(i + 2)..<(i + 2 + n)])
        }
        while i < bytes.count {
            i += 2 // the family
            _ = try field()
            let display = String(decoding: try field(), as: UTF8.self)
            #expect(String(decoding: try field(), as: UTF8.self) == "MIT-MAGIC-COOKIE-1")
            out[display] = try field()
        }
        return out
    }

    @Test("a new lease's cookie is written over the last one in the file this process's clients read, which still holds every server's entry")
    func authorityFileAfterLeases() async throws {
        let a = try await VirtualServer.start(framebuffer: Size(width: 7680, height: 4320 + 23))
        let b = try await VirtualServer.start(framebuffer: Size(width: 7680, height: 4320 + 24))
        defer { b.stop() }
        let numberA = String(a.display.dropFirst()), numberB = String(b.display.dropFirst())
        let before = try Self.entries(a.sharedAuthorityFile)
        a.stop()
        let again = try await VirtualServer.start(framebuffer: Size(width: 7680, height: 4320 + 23))
        defer { again.stop() }
        #expect(again.isWarm && again.display == a.display)
        let after = try Self.entries(again.sharedAuthorityFile)
        #expect(after[numberB] == before[numberB] && after[numberB] != nil)
        #expect(after[numberA] != nil && after[numberA] != before[numberA])
        #expect(after[numberA] == XauthFile.cookie(display: numberA))
        // A client reading the file connects with the new cookie.
        let app = try again.makeApplication()
        #expect(app.screens.count == 1)
    }

    @Test("a lease's authority is its own: its file holds its cookie only, and once stop() returns neither it nor this process's file lets a child reach the next lease")
    func leaseAuthorityIsItsOwn() async throws {
        let first = try await VirtualServer.start(framebuffer: Size(width: 7680, height: 4320 + 25))
        let given = first.environment
        let number = String(first.display.dropFirst())
        #expect(try Self.entries(first.authorityFile).keys.sorted() == [number])
        #expect(try Self.entries(first.authorityFile)[number] == XauthFile.cookie(display: number))
        first.stop()
        #expect(!FileManager.default.fileExists(atPath: given["XAUTHORITY"] ?? ""), "the lease's file outlived stop()")
        let next = try await VirtualServer.start(framebuffer: Size(width: 7680, height: 4320 + 25))
        defer { next.stop() }
        #expect(next.isWarm && next.display == first.display && next.authorityFile != first.authorityFile)
        /// `xdpyinfo`'s stand-in: xrandr --query connects and reads the screen, or exits 1.
        func connects(_ environment: [String: String]) async throws -> Bool {
            let xrandr = try #require(XServerLauncher.which("xrandr"))
            let child = try ChildProcess.spawn(xrandr, ["--query"], environment: environment)
            return await onOwnThread { child.collect() }.status == 0
        }
        #expect(try await connects(next.environment), "the new lease's own environment connects")
        #expect(try await !connects(given), "what the last lease was given reaches the next lease's server")
        // A child given only the display: it does not inherit the file this process's own clients read.
        #expect(try await !connects(["DISPLAY": next.display]), "a child without the lease's file reaches the server")
    }
}
