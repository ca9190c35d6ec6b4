import Foundation
import Multihead
import MultiheadTesting
@testable import MultiheadX11
import Testing

/// The wait for the server's reads visits the buffers put since the last one, not every window's.
@MainActor
@Suite("Waiting for the server's reads of shared pixels", .timeLimit(.minutes(2)))
struct ReadWaitTests {
    func start() async throws -> (VirtualServer, Application, X11Backend) {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "800x600+0+0", primary: true)])
        let backend = X11Backend(display: server.display)
        return (server, try Application(backend: backend), backend)
    }

    @Test("a frame of one window among many lists one buffer to wait on; an unchanged window's is not listed")
    func oneChangedOneListed() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        try #require(backend.isUsingSharedMemory)
        let ws = (0..<8).map { i in drawnWindow(app, app.mainScreen, Rect(x: Double(i * 60), y: 0, width: 50, height: 50), .red) }
        for w in ws { w.isHidden = false }
        app.flush()
        #expect(backend.buffersAwaitingRead == 8)
        backend.waitForReads()
        #expect(backend.buffersAwaitingRead == 0)
        ws[5].backgroundColor = .blue
        app.flush()
        #expect(backend.lastRedrawCount == 1)
        #expect(backend.buffersAwaitingRead == 1)
        // Two frames of the same window before a wait: listed once.
        ws[5].backgroundColor = .green
        app.flush()
        #expect(backend.buffersAwaitingRead == 1)
        backend.waitForReads()
        #expect(backend.buffersAwaitingRead == 0)
        #expect(backend.drawsOverUnreadPixels == 0)
        let pixel = try server.controlConnection().screenshot(of: Rect(x: 320, y: 20, width: 1, height: 1)).pixels.first
        #expect(pixel == Bitmap.rgb(.green))
    }

    @Test("a buffer put and then dropped (its window released, or resized) is not waited on")
    func droppedBufferIsUnlisted() async throws {
        let (server, app, backend) = try await start()
        defer { server.stop() }
        try #require(backend.isUsingSharedMemory)
        let kept = drawnWindow(app, app.mainScreen, Rect(x: 0, y: 0, width: 50, height: 50), .red)
        var released: Window? = drawnWindow(app, app.mainScreen, Rect(x: 100, y: 0, width: 50, height: 50), .red)
        kept.isHidden = false
        released?.isHidden = false
        app.flush()
        backend.waitForReads()
        kept.backgroundColor = .blue
        released?.backgroundColor = .blue
        app.flush()
        #expect(backend.buffersAwaitingRead == 2)
        released = nil
        app.flush()
        #expect(backend.buffersAwaitingRead == 1)
        // A new size is a new buffer: the old one goes from the list with it, the new one is listed.
        kept.frame.size.width = 60
        app.flush()
        #expect(backend.buffersAwaitingRead == 1)
        backend.waitForReads()
        #expect(backend.buffersAwaitingRead == 0)
        #expect(backend.drawsOverUnreadPixels == 0)
        #expect(backend.sharedSegmentIDs.count == 1)
    }
}
