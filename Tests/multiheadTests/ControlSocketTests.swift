import Foundation
import MultiheadTesting
@testable import multihead
import MultiheadControl
import Testing

/// `multihead server`'s control socket from a client's side: several connections at once, leases, and the
/// CLI going through it.
@Suite("The control socket", .timeLimit(.minutes(3)))
struct ControlSocketTests {
    /// One request on a connection of its own; the answer's members.
    func ask(_ path: String, _ line: String) throws -> JSONValue {
        let lines = ControlLines(try ControlSocket.connect(to: path, timeout: 30))
        defer { lines.close() }
        #expect(lines.write(Array(line.utf8)))
        guard case .line(let answer) = lines.next(), let v = JSONValue.parse(answer) else { throw CommandFailure(status: 70, code: "test", message: "no answer") }
        return v
    }

    @Test("connections at once are answered in full; a lease resets what the CLI plugged through the socket")
    func leasesAndConcurrentClients() async throws {
        let (p, out) = try launchMultihead(["server", "--xvfb", "--monitors", "1280x720"], environment: [:])
        let env = await LineReader(out).serverAssignments()
        let path = try #require(env["MULTIHEAD_CONTROL"])
        // Four connections, each twenty requests, at once: every answer whole and in order.
        let counts = await withTaskGroup(of: Int.self) { group in
            for n in 0..<4 {
                group.addTask {
                    await onOwnThread {
                        guard let fd = try? ControlSocket.connect(to: path, timeout: 30) else { return 0 }
                        let lines = ControlLines(fd)
                        defer { lines.close() }
                        var good = 0
                        for i in 0..<20 {
                            let request = i % 2 == 0 ? #"{"request":"screens","id":\#(n * 100 + i)}"# : #"{"request":"hello","id":\#(n * 100 + i)}"#
                            guard lines.write(Array(request.utf8)), case .line(let a) = lines.next(), let v = JSONValue.parse(a) else { break }
                            if v["ok"] == .bool(true), v["id"]?.int == n * 100 + i { good += 1 }
                        }
                        return good
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == [20, 20, 20, 20])
        // The CLI with the socket and a DISPLAY that names nothing: it goes through the server.
        let plugged = try await multihead(["plug", "EXT-1", "640x480+1280+0"],
                                          environment: ["MULTIHEAD_CONTROL": path, "DISPLAY": ":9999"], unsetDisplay: false)
        #expect(plugged.status == 0, "\(plugged.stderr)")
        let listed = try ask(path, #"{"request":"screens"}"#)
        guard case .array(let screens)? = listed["screens"] else { Issue.record("no screens: \(listed)"); return }
        #expect(screens.compactMap { $0["name"]?.string } == ["VIRTUAL-1", "EXT-1"])
        let lease = try ask(path, #"{"request":"lease"}"#)
        #expect(lease["warm"] == .bool(true) && lease["replaced"] == .bool(false) && lease["pid"]?.int == Int(env["PID"] ?? ""))
        guard case .array(let after)? = try ask(path, #"{"request":"screens"}"#)["screens"] else { return }
        #expect(after.compactMap { $0["name"]?.string } == ["VIRTUAL-1"])
        p.terminate()
        _ = await finish(p, reading: out)
        #expect(p.terminationStatus == 143)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a Swift client with MultiheadControl's public API: plug, typed screens, a refusal with its code, a closed socket")
    func swiftClient() async throws {
        let (p, out) = try launchMultihead(["server", "--xvfb", "--monitors", "1280x720"], environment: [:])
        let env = await LineReader(out).serverAssignments()
        let path = try #require(env["MULTIHEAD_CONTROL"])
        let control = try ControlConnection(path: path)
        let before = try control.screens()
        let plugged = try control.send("plug", ["name": .string("EXT-1"), "geometry": .string("640x480+1280+0")])
        #expect(plugged["ok"] == .bool(true))
        let serial = try #require(plugged["configurationSerial"]?.int)
        #expect(serial > before.configurationSerial)
        let (now, screens) = try control.screens()
        #expect(now == serial)
        #expect(screens.map(\.name) == ["VIRTUAL-1", "EXT-1"])
        #expect(screens.last?.frame == ScreenJSON.Frame(x: 1280, y: 0, width: 640, height: 480))
        // A refusal: the answer's status, code and reason, and the connection still serves.
        #expect(throws: CommandFailure.self) { try control.send("plug", ["name": .string("EXT-2")]) }
        do {
            _ = try control.send("unplug", ["name": .string("NOPE-1")])
            Issue.record("unplugging a monitor that is not there was not refused")
        } catch {
            #expect(error.status == 64 && error.code == "noSuchScreen", "\(error)")
        }
        #expect(try control.screens().screens.count == 2)
        // The server gone: 69, and a closed connection stays closed.
        p.terminate()
        _ = await finish(p, reading: out)
        do {
            _ = try control.screens()
            Issue.record("a request to a server that ended was answered")
        } catch {
            #expect(error.status == 69 && error.code == "controlUnavailable", "\(error)")
        }
        #expect(throws: CommandFailure.self) { try ControlConnection(path: path) }
        control.close()
        control.close()
    }
}
