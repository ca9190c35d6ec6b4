import Multihead
import MultiheadTesting
import MultiheadX11
import Testing

/// A private server (its default monitors, or `monitors`) and an application on it, with the X11 backend
/// whose counters the frame tests read.
@MainActor
func startX11App(monitors: [VirtualServer.Monitor]? = nil) async throws -> (VirtualServer, Application, X11Backend) {
    let server = try await VirtualServer.start(monitors: monitors)
    let app = try server.makeApplication()
    return (server, app, try #require(app.backend as? X11Backend))
}
