import Foundation
import Multihead

extension XServerLauncher {
    /// Xorg with the dummy driver (`.xorgDummy`) or with Multihead's own (`.xorg`, built for this server on
    /// first use, every output's cable out): a config file of our own (no input devices or GPUs probed),
    /// its own log. Runs as any user with Multihead's driver: the server binary is called directly (no
    /// set-user-ID wrapper), and the driver needs no console.
    static func launchXorg(_ kind: VirtualServer.Kind, framebuffer: Size, depth: Int = 24, extraArguments: [String] = []) async throws -> VirtualServer {
        var arguments: [String] = []
        let device: String
        if kind == .xorg {
            // Xorg's own folder after the driver's (the installed driver's folder is Xorg's own).
            let driver = try await XorgDriver.moduleDirectory()
            arguments = ["-modulepath", driver == "/usr/lib/xorg/modules" ? driver : driver + ",/usr/lib/xorg/modules"]
            device = #"Driver "multihead""#
        } else {
            let driver = ["/usr/lib/xorg/modules/drivers/dummy_drv.so", "/usr/lib64/xorg/modules/drivers/dummy_drv.so"]
            guard driver.contains(where: FileManager.default.fileExists(atPath:)) else {
                throw VirtualServerError.notInstalled(binary: "the Xorg dummy driver", package: "xserver-xorg-video-dummy")
            }
            device = #"Driver "dummy""# + "\n    VideoRam \(VirtualServer.dummyVideoRAM)"
        }
        let id = UUID().uuidString.prefix(8)
        // Held until the server is registered: a server stopping meanwhile must not remove the config.
        let session = try ServerRegistry.holdDirectory()
        defer { ServerRegistry.releaseDirectory() }
        let config = session + "/xorg-\(id).conf"
        let log = session + "/xorg-\(id).log"
        try writeFile(config, Data(xorgConfig(device: device, depth: depth, framebuffer: framebuffer).utf8))
        arguments = ["-config", config, "-logfile", log] + arguments + extraArguments
        do {
            return try await launch(kind: kind, binary: "Xorg", package: "xserver-xorg-core", arguments: arguments, framebuffer: framebuffer)
        } catch VirtualServerError.didNotStart(let binary, let text) where kind == .xorg {
            // A module built for another server's ABI: Xorg's log names both versions.
            throw VirtualServerError.didNotStart(binary: binary, log: XorgDriver.abiComplaint(inLog: log) ?? text)
        }
    }

    /// Xorg's configuration for one private server: no input devices or GPUs probed, one screen of the
    /// `device` section's driver with a framebuffer of `framebuffer` (the `Virtual` size).
    nonisolated static func xorgConfig(device: String, depth: Int, framebuffer: Size) -> String {
        """
        Section "ServerFlags"
            Option "AutoAddDevices" "false"
            Option "AutoEnableDevices" "false"
            Option "AutoAddGPU" "false"
            Option "AutoBindGPU" "false"
        EndSection
        Section "Device"
            Identifier "card"
            \(device)
        EndSection
        Section "Screen"
            Identifier "screen"
            Device "card"
            DefaultDepth \(depth)
            SubSection "Display"
                Depth \(depth)
                Virtual \(Int(framebuffer.width)) \(Int(framebuffer.height))
            EndSubSection
        EndSection

        """
    }
}
