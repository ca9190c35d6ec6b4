import Foundation
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Testing

@MainActor
@Suite("A kit server's extensions: GLX only when asked", .timeLimit(.minutes(3)))
struct ServerExtensionsTests {
    @Test("without glx: no GLX; with it: GLX; RANDR and MIT-SHM either way, on both kinds",
          arguments: [VirtualServer.Kind.xvfb, .xorgDummy])
    func glxOnlyWhenAsked(kind: VirtualServer.Kind) async throws {
        for glx in [false, true] {
            let server = try await VirtualServer.start(kind, glx: glx)
            defer { server.stop() }
            let c = try server.controlConnection()
            #expect(c.hasExtension("GLX") == glx, "\(kind) glx: \(glx)")
            #expect(c.hasExtension("RANDR") && c.hasExtension("MIT-SHM"))
            #expect(!c.hasExtension("NO-SUCH-EXTENSION"))
        }
    }
}
