import Foundation
import MultiheadServerControl

/// Debian's openbox on one of the kit's X servers, configured for tests: no decorations (a window's
/// content is where its frame is), fullscreen and maximize filling the monitor a window is on. Started for
/// a lease (`multihead server --wm`, `run --wm`, the pytest marker's `wm=True`) and stopped before the next:
/// a lease's reset closes every client, and the window manager is one. Its configuration and cache live
/// in a folder of the session's, removed with it.
@MainActor
public final class WindowManager {
    private let process: ChildProcess
    private let folder: String

    private init(process: ChildProcess, folder: String) { (self.process, self.folder) = (process, folder) }

    /// The openbox binary, nil when it is not installed.
    public nonisolated static var binary: String? { XServerLauncher.which("openbox") }

    /// Starts openbox on the server and returns once it manages it (`_NET_SUPPORTING_WM_CHECK` on the
    /// root), at most `timeout` seconds; `VirtualServerError.notInstalled` without openbox,
    /// `didNotStart` when it does not take the server in time.
    public static func start(on server: VirtualServer, timeout: Double = 10) throws -> WindowManager {
        guard let binary else { throw VirtualServerError.notInstalled(binary: "openbox", package: "openbox") }
        let folder = try VirtualServer.holdSessionDirectory() + "/wm-\(server.pid)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder + "/openbox", withIntermediateDirectories: true)
        try Self.configuration.write(toFile: folder + "/openbox/rc.xml", atomically: true, encoding: .utf8)
        let environment = server.environment.merging(["XDG_CONFIG_HOME": folder, "XDG_CACHE_HOME": folder]) { $1 }
        let process: ChildProcess
        do {
            process = try ChildProcess.spawn(binary, ["--sm-disable", "--config-file", folder + "/openbox/rc.xml"],
                                             environment: environment, diesWithParent: true)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        let manager = WindowManager(process: process, folder: folder)
        do {
            // The server's own connection, kept open: the pool keeps a server whose connection is whole.
            guard try server.controlConnection().waitForWindowManager(within: timeout) else {
                throw VirtualServerError.didNotStart(binary: "openbox", log: "it did not manage \(server.display) within \(Int(timeout)) s")
            }
        } catch {
            manager.stop()
            throw error
        }
        return manager
    }

    /// Ends openbox (SIGTERM, then SIGKILL after 2 s), reaps it and removes its folder.
    public func stop() {
        process.terminate(grace: 2)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// openbox's rc.xml for tests: every window undecorated, placed under the pointer's monitor, one desktop.
    static let configuration = """
        <?xml version="1.0" encoding="UTF-8"?>
        <openbox_config xmlns="http://openbox.org/3.4/rc">
          <focus><focusNew>yes</focusNew><followMouse>no</followMouse></focus>
          <placement><policy>Smart</policy><center>no</center><monitor>Mouse</monitor></placement>
          <desktops><number>1</number></desktops>
          <theme><name>Clearlooks</name><keepBorder>no</keepBorder><animateIconify>no</animateIconify></theme>
          <applications><application class="*"><decor>no</decor></application></applications>
        </openbox_config>
        """
}
