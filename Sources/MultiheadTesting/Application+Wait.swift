import Foundation
import Multihead
import MultiheadX11

/// A `waitUntil` that timed out: where it was called, what the screens were at the end, and a PNG of each.
public struct WaitTimeout: Error, CustomStringConvertible {
    /// The caller's file and line.
    public let file: String
    /// The caller's line.
    public let line: Int
    /// How long it waited.
    public let timeout: Duration
    /// The screens at the end: "NAME WxH+X+Y MODE".
    public let screens: [String]
    /// A PNG per screen, as the server showed it at the end (empty without an X11 backend).
    public let screenshots: [String]

    /// A message that says what was seen.
    public var description: String {
        var text = "\(file):\(line): the condition did not hold within \(timeout); screens at the end: "
            + (screens.isEmpty ? "none" : screens.joined(separator: "; "))
        if !screenshots.isEmpty { text += "; screenshots: " + screenshots.joined(separator: ", ") }
        return text
    }
}

extension Application {
    /// Runs the application until `condition` holds; throws `WaitTimeout` after `timeout`, naming the
    /// caller's file and line and the screens seen, with a PNG per screen written to the directory in
    /// `MULTIHEAD_ARTIFACTS` (else a temporary `mh-artifacts-…` directory) for CI to keep.
    public func waitUntil(timeout: Duration = .seconds(5), file: StaticString = #filePath, line: UInt = #line,
                          _ condition: () -> Bool) async throws {
        if await run(until: condition, timeout: timeout) { return }
        if let e = connectionError { throw e }
        let name = ("\(file)" as NSString).lastPathComponent
        throw WaitTimeout(file: "\(file)", line: Int(line), timeout: timeout,
                          screens: screens.map { "\($0.name.terminalEscaped) \($0.frame) \($0.currentMode.map { "\($0)" } ?? "-")" },
                          screenshots: writeScreenshots(prefix: "\((name as NSString).deletingPathExtension)-\(line)"))
    }

    private func writeScreenshots(prefix: String) -> [String] {
        let env = ProcessInfo.processInfo.environment["MULTIHEAD_ARTIFACTS"] ?? ""
        let dir = env.isEmpty ? NSTemporaryDirectory() + "mh-artifacts-\(getpid())" : env
        guard (try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)) != nil else { return [] }
        return screens.compactMap { s in
            let path = "\(dir)/\(prefix)-\(s.name.filter { $0.isLetter || $0.isNumber || $0 == "-" }).png"
            guard let shot = try? backend.pixels(in: s.frame), shot.width > 0, (try? shot.writePNG(to: path)) != nil else { return nil }
            return path
        }
    }
}
