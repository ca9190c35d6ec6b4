import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadControl
import MultiheadService
import MultiheadTesting

extension MultiheadCommand {
    /// `multihead server`: a private X server for trying things out, until interrupted.
    struct Server: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "server", abstract: "Start a private X server with a monitor layout, in the foreground: Xorg with Multihead's driver where it can start, else Xvfb with one line on stderr saying why (--xvfb, --xorg, --xorg-dummy choose); print DISPLAY=, XAUTHORITY=, PID= (the X server), MULTIHEAD_CONTROL= (its control socket) and MULTIHEAD_PID= (this process); stop it on SIGINT or SIGTERM; exit 69 when the X server ends. --wayland starts Multihead's Wayland compositor instead and prints WAYLAND_DISPLAY=, XDG_RUNTIME_DIR=, DISPLAY= (Xwayland), PID= (the compositor), MULTIHEAD_CONTROL=, MULTIHEAD_PID=.")

        @OptionGroup var server: ServerOptions
        @Flag(help: "Keep running when the process that started this one ends (by default the server stops with it, as a test's would).")
        var outliveParent = false

        @MainActor
        func run() async throws {
            try await withExitStatus {
                // A test runner or script killed with SIGKILL takes its server with it: SIGTERM, handled as
                // any SIGTERM (the server stops, the files go, exit 143).
                if !outliveParent, !ProcessControl.dieWithParent() {
                    printError("the process that started multihead server has ended; not starting (--outlive-parent to keep one running)")
                    throw ExitCode(ExitStatus.unavailable)
                }
                let events = AsyncStream<ServerEvent>.makeStream()
                let served = try await self.server.startServed { pid, status in
                    events.continuation.yield(.serverEnded(pid: pid, status: status))
                }
                let service = served.service
                let listener = try ControlListener(in: VirtualServer.holdSessionDirectory()) { request, reply in
                    events.continuation.yield(.request(request, reply))
                }
                for (key, value) in served.variables { try StandardOutput.line("\(key)=\(value)") }
                try StandardOutput.line("PID=\(served.pid)")
                try StandardOutput.line("MULTIHEAD_CONTROL=\(listener.path)")
                try StandardOutput.line("MULTIHEAD_PID=\(getpid())")
                // Runs until a signal (the kit's handler stops the server, removes its files and exits with
                // 128 + the signal: 130 for SIGINT, 143 for SIGTERM) or until the X server ends on its own:
                // then this process has nothing left to serve, and says so.
                for await event in events.stream {
                    switch event {
                    case .request(let request, let reply):
                        reply.send(await service.answer(request))
                    case .serverEnded(let pid, let status):
                        guard service.isRunning(pid), let running = service.runningDescription else { continue }
                        service.end()
                        throw ServerEnded(server: running, pid: pid, status: status)
                    }
                }
            }
        }
    }
}

/// What `multihead server` waits for.
enum ServerEvent: Sendable {
    /// A request on the control socket, with the reply its connection waits for.
    case request(ControlRequest, ControlReply)
    /// An X server this process ran ended with this status (128 + a signal).
    case serverEnded(pid: Int32, status: Int32)
}

/// The X server of `multihead server` ended by itself: nothing is left to serve (exit 69, the reason on stderr).
struct ServerEnded: ControlCodedError {
    /// The server in a person's words ("the X server at :3").
    let server: String
    let pid: Int32
    let status: Int32

    var description: String {
        let how = status > 128 ? "was ended by signal \(status - 128)" : "exited with status \(status)"
        return "\(server) (PID \(pid)) \(how); its files are removed"
    }
    var controlCode: ControlErrorCode { .serverEnded }
}
