import Foundation
import Multihead
import MultiheadServerControl
import MultiheadX11

/// An application on this server: what a test draws with.
extension VirtualServer {
    /// An application whose backend is an X11 connection to this server; with `shared: true` it is
    /// `Application.shared`, attached to this server (see `attachShared()`).
    public func makeApplication(shared: Bool = false) throws -> Application {
        if shared { return try attachShared() }
        return try Application(backend: X11Backend(display: display))
    }

    /// Attaches `Application.shared` to this server, so that code written the UIKit way (`Screen.main`,
    /// `Screen.screens`, `Window(frame:)`) runs on it as it is; `stop()` detaches the shared application
    /// again (`Application.detach()`). Returns `Application.shared`.
    @discardableResult
    public func attachShared() throws -> Application {
        let backend = X11Backend(display: display)
        try Application.shared.attach(backend)
        sharedBackend = backend
        return Application.shared
    }
}
