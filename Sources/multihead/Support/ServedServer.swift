import MultiheadControl
import MultiheadService
import MultiheadTesting

/// A server `multihead server` or `run` started, behind the control service that answers its socket: an X
/// server of the kit's, or Multihead's Wayland compositor.
struct ServedServer {
    /// What answers the control socket.
    let service: any ControlServing
    /// What a client needs, in the order `server` prints it: DISPLAY and XAUTHORITY for X;
    /// WAYLAND_DISPLAY, XDG_RUNTIME_DIR and DISPLAY (Xwayland) for Wayland.
    let variables: [(key: String, value: String)]
    /// The server process itself (the X server, or the compositor).
    let pid: Int32

    /// `variables` as an environment.
    var environment: [String: String] { Dictionary(variables, uniquingKeysWith: { $1 }) }
}

extension ServerOptions {
    /// Starts the server these options describe and its control service; `serverEnded` is told when the
    /// server process ends by itself. `scaleFactors` (`run --scale`) are what `screens` answers with on X,
    /// and the outputs' scales on Wayland.
    @MainActor
    func startServed(scaleFactors: [String: Double] = [:],
                     serverEnded: @escaping @Sendable (_ pid: Int32, _ status: Int32) -> Void) async throws -> ServedServer {
        switch serverKind {
        case .xvfb, .xorg, .xorgDummy:
            // The service's own pool, which the first server is leased from too.
            let pool = ControlService.makePool()
            let server = try await start(pooledIn: pool)
            let service: ControlService
            do {
                service = try ControlService(server: server, pool: pool, layout: try layout(), glx: glx, scaleFactors: scaleFactors, windowManager: wm,
                                             serverEnded: serverEnded)
            } catch {
                server.stop()
                throw error
            }
            return ServedServer(service: service, variables: [("DISPLAY", server.display), ("XAUTHORITY", server.authorityFile)], pid: server.pid)
        case .wayland:
            let compositor = try await WaylandServer.start()
            do {
                let service = try WaylandControlService(server: compositor, layout: try layout(), scaleFactors: scaleFactors, serverEnded: serverEnded)
                var variables = [("WAYLAND_DISPLAY", compositor.waylandDisplay), ("XDG_RUNTIME_DIR", compositor.runtimeDirectory)]
                if let display = compositor.display { variables.append(("DISPLAY", display)) }
                if compositor.xwaylandUnavailable {
                    printError(WaylandServer.xwaylandUnavailableReason)
                }
                return ServedServer(service: service, variables: variables.map { (key: $0.0, value: $0.1) }, pid: compositor.pid)
            } catch {
                compositor.stop()
                throw error
            }
        }
    }
}
