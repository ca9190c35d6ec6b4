import Foundation
import Multihead

extension XServerLauncher {
    /// Xorg with the dummy driver (`.xorgDummy`) or with Multihead's own (`.xorg`, built for this server on
    /// first use, every output's cable out): a config file of our own (no input devices or GPUs probed),
    /// its own log. Runs as any user with Multihead's driver: the server binary is called directly (no
    /// set-user-ID wrapper), and the driver needs no console.
    static func launchXorg(_ implementation: some XorgKindImplementation, framebuffer: Size, depth: Int = 24, extraArguments: [String] = []) async throws -> VirtualServer {
        let (device, driverArguments) = try await type(of: implementation).driver()
        let id = UUID().uuidString.prefix(8)
        // Held until the server is registered: a server stopping meanwhile must not remove the config.
        let session = try ServerRegistry.holdDirectory()
        defer { ServerRegistry.releaseDirectory() }
        let config = session + "/xorg-\(id).conf"
        let log = session + "/xorg-\(id).log"
        try writeFile(config, Data(xorgConfig(device: device, depth: depth, framebuffer: framebuffer).utf8))
        let arguments = ["-config", config, "-logfile", log] + driverArguments + extraArguments
        do {
            return try await launch(implementation, binary: "Xorg", package: "xserver-xorg-core", arguments: arguments, framebuffer: framebuffer)
        } catch VirtualServerError.didNotStart(let binary, let text) {
            throw VirtualServerError.didNotStart(binary: binary, log: type(of: implementation).complaint(inLog: log) ?? text)
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
