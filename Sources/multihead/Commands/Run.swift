import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Multihead
import MultiheadControl
import MultiheadTesting
import MultiheadProcess

extension MultiheadCommand {
    /// `multihead run [options] [--] CMD ARGS…`: xvfb-run's shape on the kit's private servers.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run a command on a private X server and return its exit status.",
            discussion: """
                The server is Xorg with Multihead's driver where it can start (every toolkit sees its \
                hotplug), else Xvfb with one line on stderr saying why; --xvfb, --xorg and --xorg-dummy \
                choose (multihead doctor says which is the default here). \
                DISPLAY and XAUTHORITY are set for the command only; inside it, plug, unplug and mode work \
                without --force. SIGINT, SIGTERM and SIGHUP go to the command, then the server stops (exit \
                130, 143, 129). If the X server dies, the command gets SIGTERM and run exits 69. A command \
                that cannot be started exits 127 (126 if it is not executable). When the command ends, \
                whatever it left running (in the background, or detached with setsid) gets SIGTERM, and \
                SIGKILL 2 s later. --wayland runs the command on Multihead's Wayland compositor instead, with \
                WAYLAND_DISPLAY, XDG_RUNTIME_DIR (a private folder) and DISPLAY (Xwayland) set; the compositor \
                and its folder end with the command, or with run however it ends.
                """)

        @OptionGroup var server: ServerOptions
        @Flag(help: "Write DISPLAY=, XAUTHORITY=, PID= (the X server) and MULTIHEAD_CONTROL= to stderr before the command starts.")
        var printEnv = false
        @Option(help: "Each screen's scale by name, NAME=F[;NAME=F…] such as \"DP-1=2;HDMI-1=1\": set for the command as MULTIHEAD_SCREEN_SCALE_FACTORS and Qt's QT_SCREEN_SCALE_FACTORS (and GDK_SCALE when every factor is the same whole number).")
        var scale: String?
        @Argument(parsing: .captureForPassthrough, help: "The command and its arguments.")
        var command: [String] = []

        /// The command without the `--` that may stand before it.
        var commandLine: [String] { command.first == "--" ? Array(command.dropFirst()) : command }

        func validate() throws {
            // The pass-through argument takes every word after the options, `--help` too: the command's first
            // word asks for help unless `--` stands before it (`run -- CMD --help` is CMD's).
            if let first = command.first, first == "--help" || first == "-h" || first == "-help" { throw CleanExit.helpRequest(self) }
            guard !commandLine.isEmpty else { throw ValidationError("run needs a command: multihead run [options] [--] CMD ARGS…") }
            _ = try scaleFactors()
        }

        /// `--scale` read: the factors by name (none without it).
        func scaleFactors() throws -> [String: Double] {
            guard let scale else { return [:] }
            do {
                return try ScreenScalePolicy.parseFactors(scale)
            } catch {
                throw ValidationError("--scale: \(error)")
            }
        }

        /// What `--scale` sets for the command: Multihead's and Qt's factors, and GTK's one integer scale
        /// when every screen has the same whole factor.
        static func scaleEnvironment(_ text: String, _ factors: [String: Double]) -> [String: String] {
            guard !factors.isEmpty else { return [:] }
            var env = [ScreenScalePolicy.environmentVariable: text, "QT_SCREEN_SCALE_FACTORS": text]
            let values = Set(factors.values)
            if values.count == 1, let only = values.first, only == only.rounded() { env["GDK_SCALE"] = String(Int(only)) }
            return env
        }

        @MainActor
        func run() async throws {
            try await withExitStatus {
                let argv = commandLine
                // Before anything starts: a command that cannot run costs no server.
                let lookup = CommandLookup.find(argv[0], path: getenv("PATH").map { String(cString: $0) })
                if let (status, message) = lookup.failure {
                    printError("\(argv[0].terminalEscaped): \(message)")
                    throw ExitCode(status)
                }
                guard case .found(let path) = lookup else { return }
                let events = AsyncStream<RunEvent>.makeStream()
                // A signal goes to the command first; this process ends when the command has.
                ProcessSignals.intercept { events.continuation.yield(.signal($0)) }
                // What the command leaves running in the background comes to this process, which ends it.
                ProcessControl.becomeSubreaper()
                let factors = try scaleFactors()
                let served = try await self.server.startServed(scaleFactors: factors) { serverPID, status in
                    events.continuation.yield(.serverEnded(pid: serverPID, status: status))
                }
                let service = served.service
                defer { service.end() }
                let listener = try ControlListener(in: VirtualServer.holdSessionDirectory()) { request, reply in
                    events.continuation.yield(.request(request, reply))
                }
                if printEnv {
                    let lines = served.variables.map { "\($0.key)=\($0.value)\n" }.joined()
                    FileHandle.standardError.write(Data((lines + "PID=\(served.pid)\nMULTIHEAD_CONTROL=\(listener.path)\n").utf8))
                }
                // On Wayland the compositor gives each output its scale: the toolkits' variables would scale twice.
                let scaleVariables = self.server.wayland ? [:] : Self.scaleEnvironment(scale ?? "", factors)
                let child = try ChildProcess.spawn(path, Array(argv.dropFirst()),
                                                   environment: served.environment.merging(["MULTIHEAD_CONTROL": listener.path]) { $1 }
                                                       .merging(scaleVariables) { $1 },
                                                   diesWithParent: true, inheritsStdio: true)
                let pid = child.pid
                Thread.detachNewThread { events.continuation.yield(.commandEnded(Self.waitForExit(pid))) }
                var outcome: ExitCode?
                for await event in events.stream {
                    switch event {
                    case .commandEnded(let status):
                        // The server first (its processes are ours too), then all the command left behind.
                        service.end()
                        ProcessControl.endDescendants()
                        throw outcome ?? ExitCode(status)
                    case .signal(let caught):
                        // The command ends as it chooses; its end ends this.
                        if !caught.fromTerminal { kill(pid, caught.signal) }
                        if outcome == nil { outcome = ExitCode(128 + caught.signal) }
                    case .request(let request, let reply):
                        reply.send(await service.answer(request))
                    case .serverEnded(let serverPID, let status):
                        guard outcome == nil, service.isRunning(serverPID), let running = service.runningDescription else { continue }
                        kill(pid, SIGTERM)
                        outcome = ExitCode(ExitStatus.unavailable)
                        printError(ServerEnded(server: running, pid: serverPID, status: status).description
                                   + "; the command was sent SIGTERM")
                    }
                }
            }
        }

        /// Reaps the command; its exit status, or 128 + the signal that ended it, as a shell reports it.
        /// `ProcessControl.reap`.
        nonisolated static func waitForExit(_ pid: Int32) -> Int32 {
            ProcessControl.reap(pid) ?? 128 + SIGKILL
        }
    }
}

/// What `run` waits for.
enum RunEvent: Sendable {
    /// The command ended with this status (128 + a signal).
    case commandEnded(Int32)
    /// A signal came for `run`.
    case signal(ProcessSignals.Caught)
    /// A request on the control socket, with the reply its connection waits for.
    case request(ControlRequest, ControlReply)
    /// An X server this process ran ended with this status (128 + a signal).
    case serverEnded(pid: Int32, status: Int32)
}
