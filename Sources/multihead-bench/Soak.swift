#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11

/// `multihead-bench soak N`: N tests of the shape docs/hotplug-testing.md shows (a server, an app with a
/// window on it, the server stopped while the app is alive, then the app released), after a warm-up of
/// one-time caches; prints the open descriptors and the resident memory before and after, for the suite's
/// leak test to read. Not a speed benchmark: there is nothing to compare with C.
@MainActor
func soak(cycles: Int) async throws {
    func cycle() async throws {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "640x480+0+0", primary: true)])
        let app = try server.makeApplication()
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 240), screen: app.mainScreen)
        window.backgroundColor = .red
        window.isHidden = false
        try app.synchronize()
        server.stop()
        // The app notices the loss at its next request, as a test's last check would.
        _ = try? app.synchronize()
        withExtendedLifetime(window) {}
    }
    // A stopped backend closes its connection from its read source's cancel handler, a turn or more of
    // the main queue later: count once every connection is closed (a fact, not a wait on time).
    func settled() async {
        for _ in 0..<10_000 where XConnection.openCount > 0 {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in DispatchQueue.main.async { c.resume() } }
        }
    }
    for _ in 0..<10 { try await cycle() }
    await settled()
    let (fds0, rss0) = (openDescriptors(), residentKB())
    for _ in 0..<cycles { try await cycle() }
    await settled()
    let (fds1, rss1) = (openDescriptors(), residentKB())
    // A sanitizer's allocator keeps freed memory in quarantine: resident memory says nothing there.
    let sanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
        || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
    print("cycles=\(cycles) fds_before=\(fds0) fds_after=\(fds1) rss_before_kb=\(rss0) rss_after_kb=\(rss1) sanitized=\(sanitized)")
}

/// `multihead-bench soak-documented N`: the documented hotplug test (`documentedTest`, warm servers) N
/// times in this process; prints the descriptors, resident memory and X servers running after the first
/// hundred and at the end.
@MainActor
func soakDocumented(tests: Int) async throws {
    for _ in 0..<100 { _ = try await documentedTest(fresh: false) }
    await Task.yield()
    let (fds0, rss0, servers0) = (openDescriptors(), residentKB(), childProcesses())
    var times: [Double] = []
    for _ in 0..<tests { times.append(try await documentedTest(fresh: false)) }
    await Task.yield()
    let (fds1, rss1, servers1) = (openDescriptors(), residentKB(), childProcesses())
    print("tests=\(tests) median_ms=\(String(format: "%.2f", median(times))) fds_before=\(fds0) fds_after=\(fds1) "
        + "rss_before_kb=\(rss0) rss_after_kb=\(rss1) servers_before=\(servers0) servers_after=\(servers1)")
}

/// How many child processes this process has (its X servers).
func childProcesses() -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.reduce(0) { n, t in
        n + ((try? String(contentsOfFile: "/proc/self/task/\(t)/children", encoding: .utf8)) ?? "").split(separator: " ").count
    }
}

/// The entries of /proc/self/fd.
func openDescriptors() -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
}

/// VmRSS from /proc/self/status, in kB.
func residentKB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}
