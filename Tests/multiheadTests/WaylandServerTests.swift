import Foundation
import MultiheadControl
import MultiheadTesting
@testable import multihead
import Testing

/// The `wayland` kind: `multihead server --wayland` and `run --wayland` on Multihead's compositor, its
/// control socket, and nothing left behind however they end.
@MainActor
@Suite("The wayland kind: server --wayland, run --wayland, the socket on a compositor", .timeLimit(.minutes(3)))
struct WaylandServerTests {
    /// One request on a connection of its own; the answer.
    func ask(_ path: String, _ line: String) async throws -> JSONValue {
        try await controlRequest(path, line)
    }

    /// After a SIGKILL nothing of the dead process could remove its folder: the next kit start sweeps it.
    func sweep() async throws {
        try await WaylandServer.start(xwayland: .off).stop()
    }

    /// Xwayland's display, or nil when the compositor had none to give it: then checked, not assumed, that
    /// this is why (a suite's other X servers may hold every display among :0…:32, the only ones wlroots
    /// 0.15 takes): the runner said so on stderr (`said`), or the socket's `hello` says `unavailable`.
    func xwaylandDisplay(_ values: [String: String]) async -> String? {
        if let display = values["DISPLAY"] { return display }
        if let said = values["said"] {
            #expect(said.contains("no Xwayland"), "no DISPLAY, and the runner did not say why: \(said)")
        } else if let path = values["MULTIHEAD_CONTROL"] {
            let hello = try? await ask(path, #"{"request":"hello"}"#)
            #expect(hello?["xwayland"] == .string("unavailable"), "no DISPLAY, and hello does not say why: \(String(describing: hello))")
        } else {
            Issue.record("no DISPLAY and nothing to ask why")
        }
        return nil
    }

    /// A process's command line (`/proc/PID/cmdline`), read with `read(2)`: Foundation's file reading leaks
    /// its buffer (LeakSanitizer) when a listed process ends before it is read. Empty for a gone process.
    static func commandLine(of pid: Int32) -> [String] {
        let fd = open("/proc/\(pid)/cmdline", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
        while case let n = read(fd, &chunk, chunk.count), n > 0, bytes.count < 65536 { bytes += chunk[..<n] }
        return bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Xwayland started by an X client (`multihead screens` on its DISPLAY, not through the socket), and its
    /// PID; nil when the compositor runs without Xwayland (`xwaylandDisplay`).
    func startXwayland(display: String?, compositor: Int32) async throws -> Int32? {
        guard let display else { return nil }
        let screens = try await multihead(["screens"], environment: ["DISPLAY": display])
        #expect(screens.status == 0, "\(screens.stderr)")
        // wlroots forks Xwayland off twice: it is found by its command line, which names the display.
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
        return try #require(pids.first { pid in
            let argv = Self.commandLine(of: pid)
            return argv.first?.hasSuffix("Xwayland") == true && argv.contains(display)
        }, "no Xwayland on \(display) (compositor \(compositor))")
    }

    @Test("server --wayland prints its lines; the socket plugs, scales, changes modes, lists, reads pixels and unplugs; SIGTERM leaves nothing")
    func serverAndSocket() async throws {
        let (p, out) = try launchMultihead(["server", "--wayland", "--monitors", "1280x720"], environment: [:])
        let reader = LineReader(out)
        var keys: [String] = [], values: [String: String] = [:]
        while values["MULTIHEAD_PID"] == nil, let line = await reader.nextLine() {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            keys.append(parts[0])
            values[parts[0]] = parts[1]
        }
        let xDisplay = await xwaylandDisplay(values)
        #expect(keys == ["WAYLAND_DISPLAY", "XDG_RUNTIME_DIR"] + (xDisplay == nil ? [] : ["DISPLAY"]) + ["PID", "MULTIHEAD_CONTROL", "MULTIHEAD_PID"])
        let path = try #require(values["MULTIHEAD_CONTROL"]), runtime = try #require(values["XDG_RUNTIME_DIR"])
        let compositor = try #require(values["PID"].flatMap { Int32($0) })
        #expect(FileManager.default.fileExists(atPath: runtime + "/" + (values["WAYLAND_DISPLAY"] ?? "")))
        #expect(try await ask(path, #"{"request":"hello"}"#)["kind"] == .string("wayland"))
        let plug = try await ask(path, #"{"request":"plug","name":"HDMI-1","geometry":"2560x1440+1280+0","scale":2,"manufacturer":"DEL","model":"U2720Q"}"#)
        #expect(plug["ok"] == .bool(true), "\(plug)")
        var screens = try await ask(path, #"{"request":"screens"}"#)
        guard case .array(let list)? = screens["screens"] else { Issue.record("\(screens)"); return }
        let rows = list.compactMap(ScreenJSON.init(json:))
        #expect(rows.map(\.name) == ["DP-1", "HDMI-1"])
        // The PNP id's company, as wlroots compositors on real hardware report the make (hwdata's pnp.ids).
        #expect(rows.last?.scale == 2 && rows.last?.manufacturer == "Dell Inc." && rows.last?.model == "U2720Q")
        #expect(rows.last?.frame == ScreenJSON.Frame(x: 1280, y: 0, width: 1280, height: 720))
        let mode = try await ask(path, #"{"request":"mode","name":"HDMI-1","size":"1920x1080","scale":1}"#)
        #expect(mode["mode"]?["width"]?.int == 1920, "\(mode)")
        #expect(try await ask(path, #"{"request":"pixel","x":5,"y":5,"screen":"DP-1"}"#)["pixel"] == .string("#000000"))
        #expect(try await ask(path, #"{"request":"unplug","name":"HDMI-1"}"#)["ok"] == .bool(true))
        let missing = try await ask(path, #"{"request":"unplug","name":"HDMI-1"}"#)
        #expect(missing["error"]?["code"] == .string("noSuchScreen") && missing["error"]?["status"]?.int == 64, "\(missing)")
        let bad = try await ask(path, #"{"request":"plug","name":"DP-2","geometry":"800x600+0+0","scale":5}"#)
        #expect(bad["error"]?["code"] == .string("usage"), "\(bad)")
        screens = try await ask(path, #"{"request":"screens"}"#)
        if case .array(let left)? = screens["screens"] { #expect(left.count == 1) }
        // The CLI inside: plug and screens go through the socket.
        let cli = try await multihead(["plug", "DP-2", "800x600+1280+0", "--scale", "2"], environment: ["MULTIHEAD_CONTROL": path])
        #expect(cli.status == 0, "\(cli.stderr)")
        let xwayland = try await startXwayland(display: xDisplay, compositor: compositor)
        kill(p.processIdentifier, SIGTERM)
        await exited(p)
        #expect(p.terminationStatus == 143)
        #expect(await waitUntilEnded(compositor))
        if let xwayland { #expect(await waitUntilEnded(xwayland)) }
        #expect(!FileManager.default.fileExists(atPath: runtime))
        #expect(sessionDirectories(of: p.processIdentifier).isEmpty)
    }

    @Test("server --wayland killed with SIGKILL: no compositor, no Xwayland, no runtime folder left")
    func serverKilled() async throws {
        let (p, out) = try launchMultihead(["server", "--wayland", "--monitors", "640x480"], environment: [:])
        let values = await LineReader(out).serverAssignments()
        let compositor = try #require(values["PID"].flatMap { Int32($0) }), runtime = try #require(values["XDG_RUNTIME_DIR"])
        let xwayland = try await startXwayland(display: await xwaylandDisplay(values), compositor: compositor)
        kill(p.processIdentifier, SIGKILL)
        await exited(p)
        #expect(await waitUntilEnded(compositor), "the compositor outlived its owner")
        if let xwayland { #expect(await waitUntilEnded(xwayland), "Xwayland outlived its compositor") }
        try await sweep()
        #expect(!FileManager.default.fileExists(atPath: runtime))
        #expect(sessionDirectories(of: p.processIdentifier).isEmpty)
    }

    @Test("server --wayland whose compositor is killed: exit 69, the compositor named once with its PID")
    func compositorKilled() async throws {
        let err = Pipe()
        let (p, out) = try launchMultihead(["server", "--wayland", "--monitors", "640x480"], environment: [:], stderr: err)
        let values = await LineReader(out).serverAssignments()
        let compositor = try #require(values["PID"].flatMap { Int32($0) })
        kill(compositor, SIGKILL)
        let message = String(decoding: await onOwnThread { err.fileHandleForReading.readDataToEndOfFile() }, as: UTF8.self)
        await exited(p)
        #expect(p.terminationStatus == 69)
        #expect(message.contains("(PID \(compositor)) was ended by signal 9"), "\(message)")
        #expect(message.components(separatedBy: "(PID ").count == 2, "\(message)")
        #expect(sessionDirectories(of: p.processIdentifier).isEmpty)
    }

    /// `multihead run ARGS` with its output on pipes, the built binary first on PATH.
    func run(_ args: [String]) throws -> ChildProcess {
        try ChildProcess.spawn(RunCommandTests.binary, ["run"] + args, environment: ["PATH": RunCommandTests.path], diesWithParent: false)
    }

    /// The `NAME=value` lines `--print-env` wrote to a child's stderr, up to MULTIHEAD_CONTROL=; every line
    /// read under `said`, for a failure's message.
    func printedEnvironment(_ child: ChildProcess) async -> [String: String] {
        await onOwnThread {
            var values: [String: String] = [:], bytes: [UInt8] = [], b: UInt8 = 0, said: [String] = []
            while values["MULTIHEAD_CONTROL"] == nil, read(child.stderr, &b, 1) == 1 {
                if b != UInt8(ascii: "\n") { bytes.append(b); continue }
                let line = String(decoding: bytes, as: UTF8.self)
                said.append(line)
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { values[parts[0]] = parts[1] }
                bytes.removeAll()
            }
            if !bytes.isEmpty { said.append(String(decoding: bytes, as: UTF8.self)) }
            values["said"] = said.joined(separator: "\n")
            return values
        }
    }

    @Test("run --wayland: the command gets WAYLAND_DISPLAY, XDG_RUNTIME_DIR and DISPLAY, plugs with --scale; its end ends the compositor")
    func runEndsWithCommand() async throws {
        let child = try run(["--wayland", "--print-env", "--monitors", "800x600", "--", "/bin/sh", "-c",
                             "echo \"w=$WAYLAND_DISPLAY r=$XDG_RUNTIME_DIR d=$DISPLAY\"; multihead plug HDMI-1 1280x720+800+0 --scale 2 && multihead screens --json; exit 4"])
        let env = await printedEnvironment(child)
        let compositor = try #require(env["PID"].flatMap { Int32($0) }, "\(env["said"] ?? "")"), runtime = try #require(env["XDG_RUNTIME_DIR"])
        let (status, out, err) = await onOwnThread { child.collect() }
        let text = String(decoding: out, as: UTF8.self)
        #expect(status == 4, "\(String(decoding: err, as: UTF8.self))")
        let xDisplay = await xwaylandDisplay(env)
        #expect(text.contains("w=\(env["WAYLAND_DISPLAY"] ?? "?") r=\(runtime) d=\(xDisplay ?? "")"), "\(text)")
        #expect(text.contains("\"name\":\"HDMI-1\"") && text.contains("\"scale\":2"), "\(text)")
        #expect(await waitUntilEnded(compositor))
        #expect(!FileManager.default.fileExists(atPath: runtime))
        #expect(sessionDirectories(of: child.pid).isEmpty)
    }

    @Test("run --wayland: a line feed in a value is refused with 64 and the compositor keeps answering in order")
    func lineFeedInValue() async throws {
        // Before the fix the path's second half became a command of its own, and every later answer went
        // to the request after it: the pixel read the previous pixel's colour.
        let child = try run(["--wayland", "--monitors", "640x480", "--", "/bin/sh", "-c", """
            multihead screenshot -o "$(printf '%s\\nplug HDMI-9\\nb.png' "$XDG_RUNTIME_DIR/a")"; echo shot=$?
            multihead screens --json; echo screens=$?
            multihead plug HDMI-1 320x200+0+480 && multihead screens --json; echo plug=$?
            """])
        let (status, out, err) = await onOwnThread { child.collect() }
        let text = String(decoding: out, as: UTF8.self), said = String(decoding: err, as: UTF8.self)
        #expect(status == 0, "\(said)")
        #expect(text.contains("shot=64") && said.contains("control character"), "\(text) \(said)")
        #expect(text.contains("screens=0") && text.contains("plug=0"), "\(text) \(said)")
        let lists = text.split(separator: "\n").filter { $0.hasPrefix("[") }.map { JSONValue.parse(Array($0.utf8)) }
        #expect(lists.count == 2, "\(text)")
        let names = lists.map { list -> [String] in
            guard case .array(let screens)? = list else { return [] }
            return screens.compactMap { if case .string(let n)? = $0["name"] { n } else { nil } }
        }
        #expect(names == [["DP-1"], ["DP-1", "HDMI-1"]], "\(text)")
        #expect(!said.contains("neither ok nor error") && !text.contains("HDMI-9"), "\(text) \(said)")
    }

    /// Xwayland made unrunnable in a mount namespace of the test's own (/dev/null bound over it), as on a
    /// machine without the `xwayland` package; root only, as `unshare --mount` is (CI runs as root).
    @Test("without Xwayland: run --wayland still runs its command for Wayland clients and says in one line what is missing; doctor names it",
          .enabled(if: getuid() == 0))
    func withoutXwayland() async throws {
        let inside = "mount --bind /dev/null \"$1\" && shift && exec \"$@\""
        let xwayland = WaylandServer.xwaylandPath
        func hidden(_ args: [String]) throws -> ChildProcess {
            try ChildProcess.spawn("/usr/bin/unshare", ["--mount", "--", "/bin/sh", "-c", inside, "sh", xwayland, RunCommandTests.binary] + args,
                                   environment: ["PATH": RunCommandTests.path], diesWithParent: false)
        }
        let child = try hidden(["run", "--wayland", "--monitors", "640x480", "--", "/bin/sh", "-c",
                                "multihead screens --json && test -S \"$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY\" && echo \"display=$DISPLAY\""])
        let (status, out, err) = await onOwnThread { child.collect() }
        let text = String(decoding: out, as: UTF8.self), said = String(decoding: err, as: UTF8.self)
        #expect(status == 0, "\(text) \(said)")
        #expect(text.contains("\"name\":\"DP-1\"") && text.contains("display=\n"), "\(text)")
        let lines = said.split(separator: "\n").filter { $0.contains("Xwayland") }
        #expect(lines.count == 1 && lines.first?.contains("apt-get install xwayland") == true && !said.contains("no X display was free"), "\(said)")
        let doctor = try hidden(["doctor", "--kind", "wayland", "--json"])
        let (doctorStatus, report, _) = await onOwnThread { doctor.collect() }
        let json = JSONValue.parse(Array(report))
        #expect(doctorStatus == 0)
        guard case .array(let kinds)? = json?["kinds"] else { Issue.record("no kinds in \(String(decoding: report, as: UTF8.self))"); return }
        let wayland = kinds.first { $0["kind"] == .string("wayland") }
        #expect(wayland?["canStart"] == .bool(true) && wayland?["missing"] == .array([.string("xwayland")]), "\(String(describing: wayland))")
    }

    @Test("run --wayland killed with SIGKILL: its command, compositor and runtime folder go")
    func runKilled() async throws {
        let child = try run(["--wayland", "--print-env", "--", "/bin/sh", "-c", "echo ready; exec sleep 300"])
        let env = await printedEnvironment(child)
        let compositor = try #require(env["PID"].flatMap { Int32($0) }, "\(env["said"] ?? "")"), runtime = try #require(env["XDG_RUNTIME_DIR"])
        let ready = await onOwnThread { () -> Bool in
            var bytes: [UInt8] = [], b: UInt8 = 0
            while read(child.stdout, &b, 1) == 1 { bytes.append(b); if b == UInt8(ascii: "\n") { break } }
            return String(decoding: bytes, as: UTF8.self) == "ready\n"
        }
        #expect(ready)
        let command = ProcessControl.children(of: child.pid).filter { $0 != compositor }
        child.terminate(grace: 0, signal: SIGKILL)
        #expect(await waitUntilEnded(compositor), "the compositor outlived run")
        for pid in command { #expect(await waitUntilEnded(pid), "the command \(pid) outlived run") }
        try await sweep()
        #expect(!FileManager.default.fileExists(atPath: runtime))
        #expect(sessionDirectories(of: child.pid).isEmpty)
    }

    @Test("--scale: 1…4 by the declaration; on an X server a scale other than 1 is refused with 64, pointing to run --scale")
    func scaleOnX() async throws {
        let range = try await multihead(["plug", "EXT", "640x480+0+0", "--scale", "5"])
        #expect(range.status == 64 && range.stderr.contains("from 1 to 4"), "\(range.stderr)")
        let half = try await multihead(["plug", "EXT", "640x480+0+0", "--scale", "0.5"])
        #expect(half.status == 64 && half.stderr.contains("not 0.5"), "\(half.stderr)")
        let child = try run(["--xvfb", "--monitors", "800x600", "--", "/bin/sh", "-c",
                             "multihead plug EXT 640x480+800+0 --scale 2; echo plug=$?; multihead mode VIRTUAL-1 800x600 --scale 1.5; echo mode=$?"])
        let (status, out, err) = await onOwnThread { child.collect() }
        let text = String(decoding: out, as: UTF8.self), said = String(decoding: err, as: UTF8.self)
        #expect(status == 0)
        #expect(text.contains("plug=64") && text.contains("mode=64"), "\(text) \(said)")
        #expect(said.contains("X has no per-output scale") && said.contains("multihead run --scale") && said.contains("--scale 1.5"), "\(said)")
    }
}
