import Foundation
import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
import Testing

/// What each command does when the machine or the server is not as expected: a fake server first on PATH,
/// a full or missing TMPDIR, rates and sizes the server cannot make, a server that stopped for a while.
@MainActor
@Suite("Faults of the machine and the server: the reason, the right status, nothing left", .timeLimit(.minutes(2)))
struct FaultTests {
    /// A folder with an executable `Xvfb` script in it, for PATH.
    func fakeXvfb(_ body: String) throws -> String {
        let dir = NSTemporaryDirectory() + "mh-fake-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let fd = open("\(dir)/Xvfb", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        let text = Array("#!/bin/sh\n\(body)\n".utf8)
        _ = write(fd, text, text.count)
        close(fd)
        return dir
    }

    @Test("a fake Xvfb first on PATH is the one started; one that exits, hangs or prints no display fails server with 69 and leaves nothing",
          arguments: ["echo 'fake Xvfb: cannot start' >&2; exit 3", "exec sleep 60", "echo hello; exec sleep 60"])
    func fakeServers(body: String) async throws {
        let dir = try fakeXvfb(body)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let r = try await multihead(["server", "--xvfb", "--monitors", "640x480"], environment: ["PATH": path])
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr.contains("Xvfb did not start"), "\(r.stderr)")
        if body.hasPrefix("echo 'fake") { #expect(r.stderr.contains("fake Xvfb: cannot start")) }
        // No session folder of that command is left.
        #expect(sessionDirectories(of: r.pid).isEmpty, "\(sessionDirectories(of: r.pid))")
    }

    @Test("TMPDIR missing: a usage error naming it, nothing created")
    func missingTMPDIR() async throws {
        let missing = NSTemporaryDirectory() + "mh-missing-\(UUID().uuidString.prefix(8))"
        let r = try await multihead(["server"], environment: ["TMPDIR": missing])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains(missing) && r.stderr.contains("does not exist"))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    // A ThreadSanitizer build takes SIGBUS in a process whose TMPDIR is a full tmpfs, even for
    // `multihead --help` (exit 66): this one fact is checked in the plain and AddressSanitizer builds.
    @Test("TMPDIR full: 73 with the file and ENOSPC's text, nothing left in it",
          .enabled(if: dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") == nil))
    func fullTMPDIR() async throws {
        let dir = NSTemporaryDirectory() + "mh-full-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A tmpfs of 16 kB, filled: the session folder can be made, no file can be written.
        let mount = try ChildProcess.spawn("/bin/mount", ["-t", "tmpfs", "-o", "size=16k", "tmpfs", dir])
        let (mounted, _, why) = await onOwnThread { mount.collect() }
        try #require(mounted == 0, "mount (root is needed): \(String(decoding: why, as: UTF8.self))")
        defer {
            let umount = try? ChildProcess.spawn("/bin/umount", [dir])
            _ = umount?.collect()
        }
        let fill = try ChildProcess.spawn("/bin/sh", ["-c", "cat /dev/zero > \"$0\"/filler", dir])
        _ = await onOwnThread { fill.collect() }
        let r = try await multihead(["server"], environment: ["TMPDIR": dir])
        #expect(r.status == 73, "\(r.stderr)")
        #expect(r.stderr.contains("No space left on device") && r.stderr.contains(dir), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["filler"])
    }

    @Test("Xorg+dummy: a rate the pixel clock cannot carry is 64 with the fastest; a desktop past video memory is 64 naming the size")
    func impossibleModes() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [.init("DUMMY0", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let fast = try await multihead(["plug", "DUMMY1", "1920x1080+1024+0", "--rate", "999"], environment: server.environment)
        #expect(fast.status == 64, "\(fast.stderr)")
        #expect(fast.stderr.contains("the fastest is"), "\(fast.stderr)")
        // RRGetScreenSizeRange says 32767, but the dummy's VideoRam (256000 kB) holds no 8200x8000 desktop: BadMatch.
        let huge = try await multihead(["plug", "DUMMY2", "100x100+8100+7900"], environment: server.environment)
        #expect(huge.status == 64, "\(huge.stderr)")
        #expect(huge.stderr.contains("8200x8000") && huge.stderr.contains("DUMMY2") && huge.stderr.contains("video memory"), "\(huge.stderr)")
        let past = try await multihead(["mode", "DUMMY0", "32000x32000"], environment: server.environment)
        #expect(past.status == 64 && past.stderr.contains("DUMMY0"), "\(past.stderr)")
        // Nothing was changed by the refusals.
        let app = try server.makeApplication()
        #expect(app.screens.map(\.name) == ["DUMMY0"])
        #expect(app.mainScreen.currentMode?.size == Size(width: 1024, height: 768))
    }

    @Test("fractional, negative and escaped: geometry mistakes are 64 quoting the argument")
    func geometryMistakes() async throws {
        for args in [["plug", "X", "100.5x100.5+0.5+0"], ["plug", "X", "-100x100+0+0"], ["mode", "X", "640.5x480"],
                     ["server", "--monitors", "800.5x600"]] {
            let r = try await multihead(args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.contains(args.last ?? ""), "\(args): \(r.stderr)")
            #expect(!r.stderr.contains("Missing expected argument"))
        }
        let escaped = try await multihead(["screenshot", "-o", "a\u{1B}[31m\nb"])
        #expect(escaped.status == 64)
        #expect(!escaped.stderr.contains("\u{1B}") && escaped.stderr.contains("\\e"), "\(escaped.stderr)")
    }

    @Test("a VirtualServer whose server stopped for a while works again once it answers")
    func controlReconnects() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)])
        defer { server.stop() }
        server.timeout = 0.5
        kill(server.pid, SIGSTOP)
        #expect(throws: (any Error).self) { try server.plug("EXT", "320x240+640+0") }
        kill(server.pid, SIGCONT)
        try server.plug("EXT", "320x240+640+0")
        #expect(try server.controlConnection().monitorFrame(named: "EXT") == Rect(x: 640, y: 0, width: 320, height: 240))
    }

    @Test("screenshot to a file that cannot be created: 73, the target named with the system's reason")
    func screenshotCannotWrite() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)])
        defer { server.stop() }
        let target = NSTemporaryDirectory() + "mh-nodir-\(UUID().uuidString.prefix(8))/shot.png"
        let r = try await multihead(["screenshot", "-o", target], environment: server.environment)
        #expect(r.status == 73, "\(r.stderr)")
        #expect(r.stderr.contains(target) && r.stderr.contains("No such file or directory"), "\(r.stderr)")
        #expect(!r.stderr.contains(".tmp"))
    }
}
