import Foundation
import MultiheadTesting
import Testing

/// The shell scripts of docs/other-toolkits.md, run as a person would copy them, with the built `multihead`
/// first on PATH (its Python block runs with the plugin's tests, Scripts/test-python).
@Suite("docs/other-toolkits.md: the shell scripts work as written", .timeLimit(.minutes(2)))
struct DocumentedScriptsTests {
    /// The fenced blocks of a language in a doc of the repository.
    static func blocks(_ language: String, in doc: String) throws -> [String] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(doc).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.components(separatedBy: "```\(language)\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
    }

    /// Runs a command with the built binaries first on PATH; its status and stdout and stderr together.
    static func run(_ path: String, _ arguments: [String]) async throws -> (Int32, String) {
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        let env = ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
        let child = try ChildProcess.spawn(path, arguments, environment: env, diesWithParent: true)
        let (status, out, err) = await onOwnThread { child.collect() }
        return (status, String(decoding: out + err, as: UTF8.self))
    }

    /// Writes a documented block to a file of its own folder and runs it with `interpreter`; its status
    /// and output.
    static func runBlock(_ block: String, as name: String, with interpreter: String, _ arguments: [String] = []) async throws -> (Int32, String) {
        let dir = NSTemporaryDirectory() + "mh-doc-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(block.utf8).write(to: URL(fileURLWithPath: "\(dir)/\(name)"))
        return try await run(interpreter, arguments + ["\(dir)/\(name)"])
    }

    @Test("the shell scripts (multihead run; multihead server beside the script): a private Xorg+dummy, plug and unplug seen by xrandr",
          arguments: ["multihead run", "multihead server"])
    func shellScript(drivenBy command: String) async throws {
        // The X scripts: the page's Wayland sketch (an app of the reader's own) is not one.
        let script = try #require(try Self.blocks("sh", in: "docs/other-toolkits.md").first { $0.contains(command) && $0.contains("xrandr") })
        let (status, output) = try await Self.runBlock(script, as: "hotplug.sh", with: "/bin/sh")
        #expect(status == 0, "\(output)")
        #expect(output.contains("hotplug seen by xrandr"))
    }
}
