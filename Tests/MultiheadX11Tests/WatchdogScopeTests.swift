internal import CXlib
import Foundation
import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Synchronization
import Testing
import MultiheadProcess

/// The watchdog that bounds a connect cuts the connection it guards and nothing else of the process.
@MainActor
@Suite("The connect watchdog's reach", .timeLimit(.minutes(3)))
struct WatchdogScopeTests {
    /// What another thread opened while a connect waited, and whether each still worked afterwards.
    final class Bystander: Sendable {
        let opened = DispatchSemaphore(value: 0)
        let checked = DispatchSemaphore(value: 0)
        let connectDone = DispatchSemaphore(value: 0)
        let results = Mutex<(xcbAlive: Bool, pairAlive: Bool)>((false, false))
    }

    @Test("a connect to a frozen server times out; an XCB connection and a socketpair another thread opened meanwhile live on")
    func connectTimeoutCutsOnlyItsOwn() async throws {
        let frozen = try await VirtualServer.start(fresh: true)
        let healthy = try await VirtualServer.start(fresh: true)
        defer { kill(frozen.pid, SIGCONT); frozen.stop(); healthy.stop() }
        kill(frozen.pid, SIGSTOP)
        let frozenEndpoint = XWatchdog.Endpoint(display: frozen.display)
        let healthyDisplay = healthy.display
        let b = Bystander()
        /// The sockets of this process connected to the frozen server, by inode (the kit's own are there
        /// before the connect).
        @Sendable func socketsToFrozen() -> Set<UInt64> {
            Set((directoryEntries("/proc/self/fd") ?? []).compactMap(Int32.init).compactMap { fd -> UInt64? in
                var st = stat()
                guard XWatchdog.peer(of: fd).map(frozenEndpoint.matches) == true, fstat(fd, &st) == 0 else { return nil }
                return UInt64(st.st_ino)
            })
        }
        let before = socketsToFrozen()
        Thread.detachNewThread {
            // Waits for the fact that the connect is under way: a new socket of this process to the frozen server.
            func connecting() -> Bool { !socketsToFrozen().subtracting(before).isEmpty }
            var none = pollfd()
            while !connecting() { _ = poll(&none, 0, 1) }
            var screen: Int32 = 0
            let x = xcb_connect(healthyDisplay, &screen)
            var pair: [Int32] = [-1, -1]
            socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair)
            b.opened.signal()
            b.connectDone.wait()
            var xcbAlive = false
            if let x, xcb_connection_has_error(x) == 0 {
                let reply = xcb_get_input_focus_reply(x, xcb_get_input_focus(x), nil)
                xcbAlive = reply != nil && xcb_connection_has_error(x) == 0
                free(reply)
            }
            var byte: UInt8 = 7, back: UInt8 = 0
            let pairAlive = write(pair[0], &byte, 1) == 1 && read(pair[1], &back, 1) == 1 && back == 7
            b.results.withLock { $0 = (xcbAlive, pairAlive) }
            if let x { xcb_disconnect(x) }
            close(pair[0])
            close(pair[1])
            b.checked.signal()
        }
        #expect(throws: X11Error.notResponding(frozen.display)) { try ServerControl(display: frozen.display, timeout: 2) }
        b.connectDone.signal()
        // The bystander opened its connections while the connect waited (or the test says why not).
        #expect(b.opened.wait(timeout: .now()) == .success, "the bystander had not opened its connections when the connect timed out")
        await onOwnThread { b.checked.wait() }
        let results = b.results.withLock { $0 }
        #expect(results.xcbAlive, "the other thread's X connection was cut")
        #expect(results.pairAlive, "the socketpair was cut")
    }

    @Test("display names lead to their sockets: local by number, a socket path, TCP by port")
    func endpoints() {
        let local = XWatchdog.Endpoint(display: ":12.0")
        #expect(local.matches(.local(path: "@/tmp/.X11-unix/X12")) && local.matches(.local(path: "/tmp/.X11-unix/X12")))
        #expect(!local.matches(.local(path: "@/tmp/.X11-unix/X1")) && !local.matches(.local(path: "/run/other.sock")))
        #expect(!local.matches(.tcp(port: 6012)))
        #expect(XWatchdog.Endpoint(display: "unix:3").matches(.local(path: "/tmp/.X11-unix/X3")))
        #expect(XWatchdog.Endpoint(display: "localhost:2").matches(.tcp(port: 6002)))
        #expect(XWatchdog.Endpoint(display: "/tmp/sock:0").matches(.local(path: "/tmp/sock")))
    }
}
