import Foundation

extension VirtualServer {
    /// Runs `xrandr` (from x11-xserver-utils) against this server, as a person at its desktop would, and
    /// returns what it printed; throws with its error output when it fails.
    public func xrandr(_ arguments: [String]) async throws -> String {
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        guard let path = XServerLauncher.which("xrandr") else {
            throw VirtualServerError.serverMissing(binary: "xrandr", package: "x11-xserver-utils")
        }
        return try await Task.detached {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: path)
            p.arguments = arguments
            p.environment = env
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            let problem = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            guard p.terminationStatus == 0 else {
                throw VirtualServerError.commandFailed(command: "xrandr " + arguments.joined(separator: " "),
                                                       output: String(decoding: problem, as: UTF8.self))
            }
            return String(decoding: data, as: UTF8.self)
        }.value
    }
}
