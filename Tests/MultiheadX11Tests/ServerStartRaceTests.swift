import Foundation
import MultiheadProcess
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

    @Test("a server still going through taken displays is started again; one that failed or said nothing is not")
    func slowStartIsTold() {
        // What a starved Xvfb had written when the kit's bound ran out (a CI run under AddressSanitizer).
        let probing = """
            _XSERVTransSocketUNIXCreateListener: ...SocketCreateListener() failed
            _XSERVTransMakeAllCOTSServerListeners: server already running
            _XSERVTransSocketUNIXCreateListener: ...SocketCreateListener() failed
            _XSERVTransMakeAllCOTSServerListeners: server already running
            """
        #expect(XServerLauncher.wasProbing(probing))
        #expect(!XServerLauncher.wasProbing(probing + "\n(EE) Fatal server error:\n(EE) Cannot establish any listening sockets"))
        #expect(!XServerLauncher.wasProbing("hello"))
        #expect(!XServerLauncher.wasProbing(""))
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

@Suite("The session directory while servers start and stop side by side")
@MainActor
struct SessionDirectoryHoldTests {
    /// Seen in CI: a test's server stopped (the last one running) while another test's Xorg waited for a
    /// start slot, and the session directory went with that Xorg's config ("no screens found").
    @Test("a start's files survive another server stopping before the start registers its server")
    func heldFilesSurviveAStop() async throws {
        let dir = try ServerRegistry.holdDirectory()
        defer { ServerRegistry.releaseDirectory() }
        let file = dir + "/held-\(UUID().uuidString.prefix(8)).conf"
        try writeFile(file, Data("Section \"Device\"\nEndSection\n".utf8))
        defer { unlink(file) }
        let other = try await VirtualServer.start()
        other.stop()
        #expect(FileManager.default.fileExists(atPath: file))
    }
}

@Suite("The sweep of stale session directories")
@MainActor
struct StaleDirectorySweepTests {
    /// A folder whose owner lives in another PID namespace sharing the temporary folder (a container): its
    /// PID answers ESRCH here. Made here with a PID no process can have (above `pid_max`) and held by the
    /// lock its owner takes; before the lock, the sweep removed it.
    @Test("a folder whose PID answers ESRCH is kept while its owner holds its lock, and swept once it lets go")
    func liveOwnerElsewhereIsKept() throws {
        let max = Int32(ProcessControl.procFile("/proc/sys/kernel/pid_max")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 4_194_304
        let path = NSTemporaryDirectory() + "multihead-\(max + 1)-\(UUID().uuidString.prefix(8))"
        #expect(mkdir(path, 0o700) == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(kill(max + 1, 0) != 0 && errno == ESRCH)
        let lock = try #require(ServerRegistry.lockDirectory(path))
        // A second taker (this sweep) cannot have it while it is held.
        #expect(ServerRegistry.lockDirectory(path) == nil)
        ServerRegistry.sweepStaleDirectories()
        #expect(FileManager.default.fileExists(atPath: path), "a live owner's folder was swept")
        close(lock)
        // Another process's sweep (a test process beside this one) may hold the folder's lock for a moment
        // as it removes it: this sweep then passes it by, so the fact waited for is the folder gone.
        let deadline = MonotonicClock.now() + 5
        while FileManager.default.fileExists(atPath: path) && MonotonicClock.now() < deadline {
            ServerRegistry.sweepStaleDirectories()
            var none = pollfd()
            if FileManager.default.fileExists(atPath: path) { _ = poll(&none, 0, 10) }
        }
        #expect(!FileManager.default.fileExists(atPath: path), "a folder no one holds and whose PID is gone stays")
    }

    @Test("this process's own session folder is locked for as long as it exists")
    func ownFolderIsLocked() async throws {
        let server = try await VirtualServer.start()
        #expect(ServerRegistry.lockDirectory(ServerRegistry.directoryPath) == nil)
        server.stop()
    }
}
