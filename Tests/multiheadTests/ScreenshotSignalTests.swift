#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadTesting
import Testing

/// A signal while `screenshot` writes its PNG: the hidden temporary file goes, the PNG is whole or absent.
/// Its own suite for its own time limit: seven runs of the CLI, each a few seconds under a sanitizer on a
/// loaded machine.
@MainActor
@Suite("screenshot stopped by a signal mid-write", .timeLimit(.minutes(5)))
struct ScreenshotSignalTests {
    @Test("screenshot stopped by SIGTERM at six moments of writing its PNG: no temporary file left, the PNG whole or absent")
    func stoppedMidWrite() async throws {
        // A full-HD PNG: a write of some milliseconds to place the moments in.
        let server = try await VirtualServer.start(monitors: [.init("VIRTUAL-1", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let dir = NSTemporaryDirectory() + "mh-shot-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let binary = OutputTests.binary, environment = server.environment
        // Every run on a thread of its own, from spawn to the files' check: the main actor, which the suite's
        // other tests share, neither spawns nor resumes between runs.
        let (write, runs) = try await onOwnThread { () throws -> (Double, [StoppedRun]) in
            let watch = try DirectoryWatch(dir)
            // The write's length: from the hidden file's creation to its rename over shot.png.
            let whole = try ChildProcess.spawn(binary, ["screenshot", "-o", dir + "/shot.png"], environment: environment)
            let clock = ContinuousClock()
            let created = watch.next(.created, prefix: ".shot.png.", within: 120)
            let start = clock.now
            let renamed = watch.next(.renamedAway, prefix: ".shot.png.", within: 120)
            let length = clock.now - start
            let ended = whole.collect()
            guard ended.status == 0, created != nil, renamed != nil else {
                throw ProcessReport(description: "a whole run: status \(ended.status), \(String(decoding: ended.stderr, as: UTF8.self))")
            }
            try FileManager.default.removeItem(atPath: dir + "/shot.png")
            let write = Double(length.components.seconds) + Double(length.components.attoseconds) / 1e18
            return (write, try (0..<6).map { i in
                let child = try ChildProcess.spawn(binary, ["screenshot", "-o", dir + "/shot.png"], environment: environment)
                // The fact: the hidden file exists. Then the moment, this test's input: a sixth further into the
                // write each run, the last just past its end.
                guard watch.next(.created, prefix: ".shot.png.", within: 120) != nil else {
                    let report = ProcessReport(child)
                    child.terminate(grace: 2, signal: SIGKILL)
                    return StoppedRun(delay: nil, status: nil, hang: report, left: [], png: nil)
                }
                let delay = write * Double(i) / 5 * 1.2
                usleep(useconds_t(delay * 1_000_000))
                kill(child.pid, SIGTERM)
                // A child still running (or a pipe still open) long after SIGTERM is a hang, reported with what
                // it was doing, not left to the time limit.
                guard let ended = child.collect(within: 60) else {
                    let report = ProcessReport(child)
                    child.terminate(grace: 2, signal: SIGKILL)
                    return StoppedRun(delay: delay, status: nil, hang: report, left: [], png: nil)
                }
                let left = try FileManager.default.contentsOfDirectory(atPath: dir)
                let shot = dir + "/shot.png"
                let png = FileManager.default.fileExists(atPath: shot) ? try Data(contentsOf: URL(fileURLWithPath: shot)) : nil
                if png != nil { try FileManager.default.removeItem(atPath: shot) }
                return StoppedRun(delay: delay, status: ended.status, hang: nil, left: left, png: png)
            })
        }
        var stopped = 0
        for (i, run) in runs.enumerated() {
            let moment = run.delay.map { "run \(i) (stopped \($0) s into a write of \(write) s)" } ?? "run \(i) (its hidden file never appeared)"
            guard let status = run.status else {
                Issue.record("\(moment) did not end: \(run.hang.map(\.description) ?? "")")
                continue
            }
            #expect(status == 0 || status == 143, "\(moment): status \(status)")
            if status == 143 { stopped += 1 }
            #expect(run.left.allSatisfy { $0 == "shot.png" }, "\(moment): \(run.left)")
            if let data = run.png {
                // Whole: PNG's signature first and its IEND chunk last.
                #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) && data.suffix(8).prefix(4) == Data("IEND".utf8),
                        "\(moment): a partial PNG")
            }
        }
        // The hidden file existed at every SIGTERM but the last's. A run may still finish its write first (the
        // signal is acted on by a thread of its own, later under load or a sanitizer): at least one must not.
        #expect(stopped > 0, "no run ended for the signal; writes of \(write) s")
    }
}

/// One run of `screenshot` stopped by SIGTERM: when, how it ended (nil: it did not, and `hang` says what it
/// was doing), the directory's files after it, and the PNG it left if any.
private struct StoppedRun: Sendable {
    /// Seconds after the hidden file appeared (nil: it never did).
    let delay: Double?
    let status: Int32?
    let hang: ProcessReport?
    let left: [String]
    let png: Data?
}
