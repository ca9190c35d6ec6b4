import Foundation
import MultiheadTesting
import Testing

/// Ten thousand tests in one process: the documented test shape (`defer { server.stop() }` while the app is
/// alive) must leave nothing behind per test. Run in a process of its own (`multihead-bench soak`), where
/// no other test opens descriptors meanwhile.
@Suite("A suite of thousands: no descriptor or memory leaked per test", .timeLimit(.minutes(5)))
struct LeakTests {
    @Test("300 tests of the documented shape: descriptors flat, resident memory within 2 MB")
    func soak() async throws {
        let bench = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("multihead-bench").path
        let child = try ChildProcess.spawn(bench, ["soak", "300"], diesWithParent: true)
        let (status, out, err) = await onOwnThread { child.collect() }
        let text = String(decoding: out, as: UTF8.self)
        try #require(status == 0, "\(text) \(String(decoding: err.suffix(2000), as: UTF8.self))")
        var values: [String: String] = [:]
        for field in text.split(whereSeparator: \.isWhitespace) {
            let kv = field.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { values[kv[0]] = kv[1] }
        }
        let fds = try #require(values["fds_before"].flatMap(Int.init)), fdsAfter = try #require(values["fds_after"].flatMap(Int.init))
        let rss = try #require(values["rss_before_kb"].flatMap(Int.init)), rssAfter = try #require(values["rss_after_kb"].flatMap(Int.init))
        #expect(fdsAfter <= fds, "descriptors \(fds) → \(fdsAfter)")
        if values["sanitized"] != "true" { #expect(rssAfter - rss <= 2048, "resident \(rss) kB → \(rssAfter) kB") }
    }
}
