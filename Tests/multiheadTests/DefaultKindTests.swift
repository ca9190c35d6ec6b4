import Foundation
@testable import multihead
import MultiheadControl
import MultiheadTesting
import Testing

/// The kind `multihead server` and `run` start without a flag: Xorg with Multihead's driver where it can
/// start, else Xvfb with one line on stderr saying why; `multihead doctor` calls the same one the default.
@MainActor
@Suite("The default kind of server", .timeLimit(.minutes(3)))
struct DefaultKindTests {
    @Test("the rule: xorg when doctor says that kind can start; else xvfb, the line naming the reason and the packages")
    func rule() {
        let can = DoctorReport.KindStatus(kind: .xorg, missing: [], reason: nil)
        #expect(DefaultKind.decide(xorg: can) == .init(kind: .xorg, whyNotXorg: nil, missing: []))
        #expect(DefaultKind.decide(xorg: can).notice == nil)

        let noXorg = DoctorReport.xorgStatus(xkbcomp: DoctorReport.Piece(name: "xkbcomp", path: "/usr/bin/xkbcomp", package: "x11-xkb-utils", use: ""),
                                             xorg: DoctorReport.xorgPiece(path: nil), driver: .init(source: "missing", note: "no Xorg"))
        let decided = DefaultKind.decide(xorg: noXorg)
        #expect(decided.kind == .xvfb)
        #expect(decided.notice == "starting Xvfb, not Xorg with Multihead's driver, which needs Xorg (xserver-xorg-core): apt-get install "
                + "xserver-xorg-core; GTK, Qt 5, SDL, GLFW and Chromium see no hotplug on Xvfb (--xvfb asks for Xvfb without this line)")

        // Xorg there, but no driver fits and none can be built: the packages that would build one.
        let noDriver = DoctorReport.xorgStatus(xkbcomp: DoctorReport.Piece(name: "xkbcomp", path: "/usr/bin/xkbcomp", package: "x11-xkb-utils", use: ""),
                                               xorg: DoctorReport.xorgPiece(path: "/usr/lib/xorg/Xorg"),
                                               driver: .init(source: "missing", note: "no prebuilt driver fits, and building one needs xserver-xorg-dev, gcc"))
        #expect(DefaultKind.decide(xorg: noDriver).kind == .xvfb)
        #expect(DefaultKind.decide(xorg: noDriver).missing == ["xserver-xorg-dev", "gcc"])
        #expect(DefaultKind.decide(xorg: noDriver).notice?.contains("which needs Multihead's Xorg driver (no prebuilt driver fits") == true)

        // A driver that can be built at first use is as good as one there.
        let buildable = DoctorReport.xorgStatus(xkbcomp: DoctorReport.Piece(name: "xkbcomp", path: "/usr/bin/xkbcomp", package: "x11-xkb-utils", use: ""),
                                                xorg: DoctorReport.xorgPiece(path: "/usr/lib/xorg/Xorg"), driver: .init(source: "build"))
        #expect(DefaultKind.decide(xorg: buildable).kind == .xorg)
    }

    /// `multihead server ARGS` with `environment`: its assignments, what `hello` and `screens` answer, and
    /// what it wrote on stderr once stopped.
    func serve(_ args: [String], environment: [String: String]) async throws -> (hello: JSONValue, names: [String], stderr: String) {
        let err = Pipe()
        let (p, out) = try launchMultihead(["server"] + args, environment: environment, stderr: err)
        let values = await LineReader(out).serverAssignments()
        let path = try #require(values["MULTIHEAD_CONTROL"])
        let answers = try await onOwnThread { () throws -> [JSONValue] in
            let lines = ControlLines(try ControlSocket.connect(to: path, timeout: 30))
            defer { lines.close() }
            return [#"{"request":"hello"}"#, #"{"request":"screens"}"#].compactMap { request -> JSONValue? in
                guard lines.write(Array(request.utf8)), case .line(let answer) = lines.next() else { return nil }
                return JSONValue.parse(answer)
            }
        }
        kill(p.processIdentifier, SIGTERM)
        let said = await onOwnThread { err.fileHandleForReading.readDataToEndOfFile() }
        await exited(p)
        #expect(sessionDirectories(of: p.processIdentifier).isEmpty)
        try #require(answers.count == 2)
        guard case .array(let screens)? = answers[1]["screens"] else { throw CommandFailure(status: 70, code: "test", message: "no screens: \(answers[1])") }
        return (answers[0], screens.compactMap { $0["name"]?.string }, String(decoding: said, as: UTF8.self))
    }

    @Test("server without a flag starts the kind doctor calls the default, and hello says it; Xvfb for want of Xorg says why in one line",
          arguments: [false, true])
    func serverFollowsDoctor(withoutXorg: Bool) async throws {
        let environment = withoutXorg ? ["MULTIHEAD_XORG": "/nonexistent/Xorg"] : [:]
        let doctor = try await multihead(["doctor", "--json"], environment: environment)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any])
        let defaultKind = try #require(json["defaultKind"] as? String)
        if withoutXorg { #expect(defaultKind == "xvfb") }
        let (hello, names, stderr) = try await serve(["--monitors", "640x480,800x600"], environment: environment)
        #expect(hello["kind"]?.string == defaultKind, "\(hello)")
        #expect(names == (defaultKind == "xorg" ? ["DP-1", "DP-2"] : ["VIRTUAL-1", "VIRTUAL-2"]), "\(names)")
        let notices = stderr.split(separator: "\n").filter { $0.contains("starting Xvfb, not Xorg") }
        #expect(notices.count == (defaultKind == "xvfb" ? 1 : 0), "\(stderr)")
        if withoutXorg {
            #expect(notices.first?.hasPrefix("multihead: starting Xvfb, not Xorg with Multihead's driver, which needs Xorg (xserver-xorg-core): apt-get install xserver-xorg-core;") == true, "\(stderr)")
        }
    }

    @Test("--xvfb asks for Xvfb: no line, hello says xvfb, Xvfb's names")
    func explicitXvfb() async throws {
        let (hello, names, stderr) = try await serve(["--xvfb", "--monitors", "640x480"], environment: ["MULTIHEAD_XORG": "/nonexistent/Xorg"])
        #expect(hello["kind"]?.string == "xvfb")
        #expect(names == ["VIRTUAL-1"])
        #expect(!stderr.contains("starting Xvfb"), "\(stderr)")
    }

    @Test("run without a flag gives its command the default kind's server")
    func runFollowsTheDefault() async throws {
        let r = try await multihead(["run", "--monitors", "640x480", "--", "/bin/sh", "-c",
                                     "\"$0\" screens --json", OutputTests.binary])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(DefaultKind.here.kind == .xorg ? "\"DP-1\"" : "\"VIRTUAL-1\""), "\(r.stdout)")
    }
}
