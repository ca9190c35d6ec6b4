import Foundation
import Multihead
@testable import MultiheadServerControl
@testable import MultiheadTesting
@testable import MultiheadX11
import Testing

/// A real Xorg's screen (the root window, what xrandr calls "current", xdpyinfo's dimensions) is the
/// bounding box of its CRTCs; the framebuffer behind it is only the largest it can grow to.
@MainActor
@Suite("The screen is its monitors' bounding box", .timeLimit(.minutes(3)))
struct ScreenSizeTests {
    @Test("on the Xorg kinds a layout's screen is its bounding box from the start, fresh and warm; Xvfb's is its framebuffer",
          arguments: [VirtualServer.Kind.xorg, .xorgDummy, .xvfb])
    func screenIsTheBoundingBox(kind: VirtualServer.Kind) async throws {
        let names = kind == .xorg ? ["DP-1", "DP-2"] : kind == .xorgDummy ? ["DUMMY1", "DUMMY2"] : ["LEFT", "RIGHT"]
        let layout = [VirtualServer.Monitor(names[0], "1920x1080+0+0", primary: true), .init(names[1], "1280x1024+1920+0")]
        // A framebuffer of this test's own: no other test's server is taken, and the second start is this one's.
        let fb = Size(width: 7680, height: 4320 + 41)
        let expected = kind == .xvfb ? "current 7680 x 4361" : "current 3200 x 1080"
        var displays: [String] = []
        for _ in 0..<2 {
            let server = try await VirtualServer.start(kind, monitors: layout, framebuffer: fb)
            displays.append(server.display)
            let xrandr = try await server.xrandr([])
            #expect(xrandr.contains(expected), "\(kind): \(xrandr.prefix(200))")
            let root = try server.controlConnection().rootSize
            #expect(root == (kind == .xvfb ? fb : Size(width: 3200, height: 1080)), "\(kind)")
            server.stop()
        }
        #expect(displays[0] == displays[1], "\(kind): the second start was not warm: \(ServerPool.shared.lastRefusal)")
    }
}
