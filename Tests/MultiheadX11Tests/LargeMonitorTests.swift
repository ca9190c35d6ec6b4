import Foundation
import Multihead
@testable import MultiheadServerControl
@testable import MultiheadTesting
@testable import MultiheadX11
import Testing

/// Monitors an EDID's base block cannot describe (4096 pixels or more a side, or a pixel clock past
/// 655.35 MHz): 5K, 8K, DCI 4K and 4K at 144 Hz, described in a DisplayID extension block that
/// Multihead's driver reads (Xorg's own EDID code reads none), on the default kind beside DP-1.
@MainActor
@Suite("Xorg with Multihead's driver: 5K, 8K and fast 4K monitors", .timeLimit(.minutes(3)))
struct LargeMonitorTests {
    /// A monitor the issue asks for: its size, its rate, who made it.
    struct Big: Sendable, CustomStringConvertible {
        var width: Int, height: Int, rate: Double?
        var manufacturer: String, model: String
        var description: String { "\(width)x\(height)@\(rate.map { String(Int($0)) } ?? "default")" }
    }

    @Test("a 5K, an 8K and a 4K-at-144-Hz monitor plugged with their EDIDs beside DP-1: the output has their mode, our screens, GTK 4 and Qt 6 see their size and maker",
          arguments: [Big(width: 5120, height: 2880, rate: nil, manufacturer: "APP", model: "Studio 5K"),
                      Big(width: 7680, height: 4320, rate: nil, manufacturer: "SAM", model: "QN900C"),
                      Big(width: 3840, height: 2160, rate: 144, manufacturer: "SAM", model: "Odyssey G7")])
    func bigMonitorIsSeen(big: Big) async throws {
        let server = try await VirtualServer.start(.xorg, monitors: [.init("DP-1", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let monitor = VirtualServer.MonitorIdentity(manufacturer: big.manufacturer, model: big.model, serialNumber: "42")
        try server.plug("DP-2", "\(big.width)x\(big.height)+1920+0", monitor: monitor, refreshRate: big.rate)
        let size = Size(width: Double(big.width), height: Double(big.height))

        // RandR: the output is lit in the DisplayID mode, its EDID the one plugged (base block and DisplayID).
        let output = try XorgCableTests.output("DP-2", on: server)
        #expect(output.connected && output.modes.contains(size))
        #expect(output.edid.map { $0.count == 256 && $0[128] == 0x70 } == true)
        let app = try server.makeApplication()
        let screen = try #require(app.screen(named: "DP-2"))
        #expect(screen.currentMode?.size == size && screen.manufacturer == big.manufacturer && screen.model == big.model)
        if let rate = big.rate { #expect(abs((screen.currentMode?.refreshRate ?? 0) - rate) < 0.5) }
        #expect(screen.frame == Rect(x: 1920, y: 0, width: size.width, height: size.height))

        // GTK 4.8: "monitor CONNECTOR WxH+X+Y scale S|MANUFACTURER|MODEL", its maker the EDID's PNP id (its
        // model on X is the connector's name).
        let gtk = try await PythonToolkitClient.listing("gtk4-monitors.py", environment: server.environment)
        let gtkLine = gtk.first { $0.hasPrefix("monitor DP-2 ") }
        #expect(gtkLine?.hasPrefix("monitor DP-2 \(big.width)x\(big.height)+1920+0 ") == true, "\(gtk)")
        #expect(gtkLine?.contains("|\(big.manufacturer)|") == true, "\(gtk)")
        // Qt 6: "monitor NAME WxH+X+Y dpr R", then "identity NAME MANUFACTURER|MODEL|SERIAL": its maker's name
        // from the PNP id, the model and serial as the EDID's texts (Qt 6.4 shows their line feed as "-").
        let qt = try await PythonToolkitClient.listing("qt6-monitors.py", environment: server.environment.merging(["QT_QPA_PLATFORM": "xcb"]) { $1 })
        #expect(qt.contains { $0.hasPrefix("monitor DP-2 \(big.width)x\(big.height)+1920+0 ") }, "\(qt)")
        let identity = qt.first { $0.hasPrefix("identity DP-2 ") }
        #expect(identity.map { !$0.hasPrefix("identity DP-2 |") && $0.contains("|\(big.model)") && $0.contains("|42") } == true, "\(qt)")
    }

    @Test("the kit's EDID of a mode past a base block: the base block in a mode it holds, the DisplayID block with the mode, the model reads the base block")
    func edidLayout() throws {
        let bytes = try ServerControl.MonitorIdentity(manufacturer: "DEL", model: "UP3218K").edid(preferred: Size(width: 7680, height: 4320))
        #expect(bytes.count == 256 && bytes[126] == 1 && EDID.fault(in: bytes) == nil)
        let parsed = try #require(EDID(bytes))
        #expect(parsed.manufacturer == "DEL" && parsed.model == "UP3218K")
        // The base block's timing: 3840×2160 (half), which a detailed timing holds.
        #expect(Int(bytes[56]) | Int(bytes[58] >> 4) << 8 == 3840)
        // A size past 16384, a rate RandR cannot carry, or one CVT has no timings for, names the size, not
        // the identity.
        let cases: [(Size, Double?)] = [(Size(width: 20000, height: 1080), nil), (Size(width: 16384, height: 16384), 60),
                                        (Size(width: 1920, height: 1080), 5000)]
        for (size, rate) in cases {
            #expect {
                try ServerControl.MonitorIdentity(manufacturer: "DEL", model: "UP3218K").edid(preferred: size, refreshRate: rate)
            } throws: { error in
                let text = "\(error)"
                return text.contains("\(Int(size.width))") && !text.contains("manufacturer")
            }
        }
        // A malformed DisplayID block is named by its fault.
        var long = bytes
        long[128 + 2] = 200
        #expect(EDID.fault(in: EDID.checksummed(long))?.contains("DisplayID block 1") == true)
    }
}

/// One of the Python clients in Tests/ToolkitClients (GTK 4, Qt 6): started with a server's environment,
/// its listing at start read line by line up to "end", then ended.
enum PythonToolkitClient {
    /// The lines it printed up to "end" (or until it ended).
    static func listing(_ script: String, environment: [String: String]) async throws -> [String] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ToolkitClients/\(script)").path
        let child = try ChildProcess.spawn("/usr/bin/python3", [path], environment: environment, diesWithParent: true, withInput: true)
        defer { child.terminate(grace: 0, signal: SIGKILL) }
        return await onOwnThread {
            var lines: [String] = [], buffer: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[..<nl], as: UTF8.self)
                    buffer.removeSubrange(...nl)
                    lines.append(line)
                    if line == "end" { return lines }
                    continue
                }
                let n = read(child.stdout, &chunk, chunk.count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return lines }
                buffer.append(contentsOf: chunk[..<n])
            }
        }
    }
}
