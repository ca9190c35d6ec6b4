import Foundation
@testable import MultiheadTesting
import Testing

@Suite("A server start that meets another server's lock")
struct ServerStartRaceTests {
    @Test("the lock file is read from Xvfb's message")
    func parsesTheLock() {
        let log = """
            _XSERVTransSocketUNIXCreateListener: ...SocketCreateListener() failed
            Server is already active for display 9
            \tIf this server is no longer running, remove /tmp/.X9-lock
            \tand start again.
            """
        #expect(XServerLauncher.takenLock(in: log) == "/tmp/.X9-lock")
        #expect(XServerLauncher.takenLock(in: "(EE) no screens found") == nil)
    }

    @Test("a lock whose process is gone is removed; one whose process lives is kept")
    func clearsOnlyStaleLocks() throws {
        let dir = NSTemporaryDirectory() + "mh-test-lock-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A PID that no process has: past the kernel's limit.
        let stale = dir + "/stale-lock"
        try "     4194305\n".write(toFile: stale, atomically: true, encoding: .utf8)
        XServerLauncher.clearWhenStale(stale)
        #expect(!FileManager.default.fileExists(atPath: stale))
        // This process: alive, not a zombie; after the bound the lock is still there.
        let live = dir + "/live-lock"
        try "\(getpid())\n".write(toFile: live, atomically: true, encoding: .utf8)
        XServerLauncher.clearWhenStale(live)
        #expect(FileManager.default.fileExists(atPath: live))
    }
}
