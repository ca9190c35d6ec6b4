internal import CXlib
import Foundation
@testable import Multihead
@testable import MultiheadServerControl
@testable import MultiheadTesting
@testable import MultiheadX11
import Testing

/// The code that runs inside the X server: Multihead's Xorg driver takes what any client of the server sets
/// on a cable. It runs here under valgrind (memcheck) and is fed the malformed EDIDs a careless or hostile
/// client could set; the server's EDID code must never read or write past what the client sent.
@MainActor
@Suite("Multihead's Xorg driver under valgrind: what a client sets", .timeLimit(.minutes(5)))
struct XorgDriverInputTests {
    /// Functions of the driver and of the server's EDID code: a memcheck error with one of them in its
    /// stack is the driver's (ld.so's own reports at module load are not).
    static let driverFrames = ["multihead_drv.so", "mh_", "xf86InterpretEDID", "xf86OutputSetEDID", "xf86DDC", "xf86ForEach",
                               "xf86EdidMonitorSet", "xf86ProbeOutputModes", "xf86OutputGetEDIDModes", "RRChangeOutputProperty"]

    /// memcheck's error reports (each a block of `==PID==` lines) that name one of the driver's frames.
    static func driverErrors(inLog text: String) -> [String] {
        var records: [String] = [], current: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let body = line.drop { $0 != " " }.dropFirst()
            if body.isEmpty {
                if !current.isEmpty { records.append(current.joined(separator: "\n")) }
                current = []
            } else {
                current.append(String(body))
            }
        }
        if !current.isEmpty { records.append(current.joined(separator: "\n")) }
        let kinds = ["Invalid read", "Invalid write", "fishy value", "uninitialised", "Invalid free", "Mismatched free"]
        return records.filter { r in kinds.contains { r.contains($0) } && driverFrames.contains { r.contains($0) } }
    }

    @Test("malformed EDIDs are refused (the cable left as it was), a CEA EDID and a 5K DisplayID EDID give their modes, the cable's properties cannot be deleted; memcheck finds nothing in the driver")
    func malformedInputUnderValgrind() async throws {
        let valgrind = try #require(XServerLauncher.which("valgrind"), "valgrind is not installed (Scripts/setup installs it)")
        let modules = try await XorgDriver.moduleDirectory()
        let folder = NSTemporaryDirectory() + "mh-test-valgrind-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/xorg.conf", memcheckLog = folder + "/memcheck.log"
        try Data(XServerLauncher.xorgConfig(device: #"Driver "multihead""#, depth: 24, framebuffer: Size(width: 5120, height: 2880)).utf8)
            .write(to: URL(fileURLWithPath: config))
        // Under the kit's supervisor shell, which passes SIGTERM on and dies with this process.
        let server = try ChildProcess.spawn("/bin/sh", ["-c", XServerLauncher.supervisor, "xorg-supervisor", valgrind,
                                                        "--log-file=\(memcheckLog)", "--error-limit=no", "/usr/lib/xorg/Xorg",
                                                        "-displayfd", "1", "-noreset", "-nolisten", "tcp", "-config", config,
                                                        "-modulepath", modules + ",/usr/lib/xorg/modules", "-logfile", folder + "/xorg.log"],
                                            diesWithParent: true)
        var stopped = false
        defer { if !stopped { server.terminate(grace: 30) } }
        let (out, err) = (server.stdout, server.stderr)
        let (number, early) = await onOwnThread { XServerLauncher.readLine(fd: out, draining: err, timeoutMs: 120_000) }
        let display = try #require(number.map { ":" + $0 }, "Xorg under valgrind did not start: \(String(decoding: early, as: UTF8.self))")

        // Another client sets the cables (Tests/ToolkitClients/cable-client.py, libXrandr through ctypes), in a
        // process of its own: the server under valgrind answers slowly, and the main actor, which the other
        // tests share, stays free meanwhile.
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ToolkitClients/cable-client.py").path
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        var steps: [String] = []
        for (index, sample) in EDIDSamples.malformed.enumerated() {
            let name = VirtualServer.cabledOutputs[index]
            steps += [#"{"set": "\#(name)", "edid": "\#(hex(sample.bytes))", "connected": 1}"#, #"{"state": "\#(name)"}"#]
        }
        // A monitor with a CEA block (a TV): its CEA modes are offered. The cable's properties cannot be
        // deleted (BadAccess), and so the cable can still be plugged.
        steps += [#"{"set": "HDMI-1", "edid": "\#(hex(EDIDSamples.withCEA))", "connected": 1}"#, #"{"state": "HDMI-1"}"#,
                  // A 5K monitor: its mode is in its DisplayID block, which the driver reads.
                  #"{"set": "HDMI-2", "edid": "\#(hex(EDIDSamples.withDisplayID))", "connected": 1}"#, #"{"state": "HDMI-2"}"#,
                  #"{"delete": "DP-8", "property": "\#(ServerControl.cableConnectedName)"}"#,
                  #"{"delete": "DP-8", "property": "\#(ServerControl.cableEDIDName)"}"#,
                  #"{"set": "DP-8", "edid": null, "connected": 1}"#, #"{"state": "DP-8"}"#]
        let client = try ChildProcess.spawn("/usr/bin/python3", [script], environment: ["DISPLAY": display], withInput: true)
        let input = Data(steps.joined(separator: "\n").utf8 + [UInt8(ascii: "\n")])
        let (status, said, complaint) = await onOwnThread {
            if let fd = client.stdin {
                FileHandle(fileDescriptor: fd, closeOnDealloc: true).write(input)
            }
            return client.collect()
        }
        #expect(status == 0, "cable-client.py: \(String(decoding: complaint, as: UTF8.self))")
        let answers: [[String: Any]] = said.split(separator: UInt8(ascii: "\n")).map { line in
            (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] ?? [:]
        }
        try #require(answers.count == steps.count, "\(answers.count) answers to \(steps.count) steps")
        for (index, sample) in EDIDSamples.malformed.enumerated() {
            #expect(answers[2 * index]["error"] as? String == "BadValue", "\(sample.name): \(answers[2 * index])")
            #expect(answers[2 * index + 1]["connected"] as? Bool == false, "\(sample.name): the cable stays out")
        }
        let k = 2 * EDIDSamples.malformed.count
        #expect(answers[k]["error"] is NSNull, "the CEA EDID: \(answers[k])")
        let sizes = (answers[k + 1]["modes"] as? [[Int]] ?? []).map { Size(width: Double($0[0]), height: Double($0[1])) }
        #expect(sizes.contains(Size(width: 1920, height: 1080)) && sizes.contains(Size(width: 1280, height: 720)), "\(sizes)")
        #expect(answers[k + 2]["error"] is NSNull, "the DisplayID EDID: \(answers[k + 2])")
        let fiveK = (answers[k + 3]["modes"] as? [[Int]] ?? []).map { Size(width: Double($0[0]), height: Double($0[1])) }
        #expect(fiveK.contains(Size(width: 5120, height: 2880)) && fiveK.contains(Size(width: 1920, height: 1080)), "\(fiveK)")
        #expect(answers[k + 4]["error"] as? String == "BadAccess" && answers[k + 5]["error"] as? String == "BadAccess",
                "delete: \(answers[k + 4]) \(answers[k + 5])")
        #expect(answers[k + 6]["error"] is NSNull && answers[k + 7]["connected"] as? Bool == true, "DP-8: \(answers[k + 7])")

        await onOwnThread { server.terminate(grace: 60) }
        stopped = true
        let text = try String(contentsOfFile: memcheckLog, encoding: .utf8)
        #expect(text.contains("ERROR SUMMARY"), "memcheck did not finish its report")
        let errors = Self.driverErrors(inLog: text)
        #expect(errors.isEmpty, "memcheck: \(errors.count) errors in the driver or the EDID code; the first:\n\(errors.first ?? "")")
    }

    @Test("memcheck's report is read as it is written: an invalid read in the EDID code counts, ld.so's own does not")
    func readsMemcheckReports() {
        let log = """
            ==7== Invalid read of size 1
            ==7==    at 0x5: xf86InterpretEDID (interpret_edid.c:1)
            ==7==    by 0x6: mh_output_get_modes (multihead_outputs.c:2)
            ==7==
            ==7== Invalid read of size 8
            ==7==    at 0x7: strncmp (strcmp-sse2.S:162)
            ==7==    by 0x8: is_dst (dl-load.c:216)
            ==7==
            ==7== ERROR SUMMARY: 2 errors from 2 contexts
            """
        let errors = Self.driverErrors(inLog: log)
        #expect(errors.count == 1 && errors.first?.contains("xf86InterpretEDID") == true)
    }
}
