import Foundation
import Multihead
import MultiheadServerControl
import MultiheadTesting
import Testing

/// Identities a real machine has and fractional scales: an EDID's product code, binary serial and
/// interface on the default kind (read back as any client reads them, `xrandr --props`, and checked by
/// edid-decode); a fractional scale and an EDID file on the wayland kind.
@MainActor
@Suite("Monitor identities and fractional scales through the CLI", .timeLimit(.minutes(3)))
struct IdentityAndScaleTests {
    /// `multihead run ARGS` with its output on pipes, the built binary first on PATH; its status and stdout.
    func run(_ args: [String]) async throws -> (Int32, String, String) {
        let child = try ChildProcess.spawn(RunCommandTests.binary, ["run"] + args, environment: ["PATH": RunCommandTests.path])
        let (status, out, err) = await onOwnThread { child.collect() }
        return (status, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test("xorg: --product-code and --binary-serial land in the EDID an X client reads, with HDMI as its interface on HDMI-1")
    func productCodeAndSerialOnX() async throws {
        let (status, out, err) = try await run(["--xorg", "--monitors", "1920x1080", "--", "/bin/sh", "-c",
                                                "multihead plug HDMI-1 1280x720+1920+0 --manufacturer DEL --model 'DELL P2419H' --product-code 41234 --binary-serial 305419896 && xrandr --props"])
        #expect(status == 0, "\(err)")
        let edid = try #require(Self.edid(of: "HDMI-1", inXrandr: out), "\(out)")
        #expect(edid.count >= 128)
        #expect(UInt16(edid[10]) | UInt16(edid[11]) << 8 == 41234)
        #expect(edid[12..<16].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) } == 305_419_896)
        #expect(edid[20] == 0xA2, "HDMI-a, digital, 8 bits a colour")
        #expect(EDID(Array(edid))?.productCode == 41234)
        // DP-1, plugged at the start with the kit's own EDID: DisplayPort.
        #expect(Self.edid(of: "DP-1", inXrandr: out)?[20] == 0xA5)
        // Mistakes: 64 with the reason.
        let (bad, _, said) = try await run(["--xvfb", "--", "multihead", "plug", "HDMI-1", "800x600+0+0", "--product-code", "70000"])
        #expect(bad == 64 && said.contains("--product-code is 0 to 65535"), "\(said)")
    }

    @Test("wayland: --scale 1.5 gives a 1280x720 logical frame; --edid FILE names the monitor as wlroots reads it; --product-code is 64")
    func fractionalScaleAndEDIDOnWayland() async throws {
        let file = NSTemporaryDirectory() + "mh-edid-\(UUID().uuidString.prefix(8)).bin"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let bytes = try ServerControl.MonitorIdentity(manufacturer: "DEL", model: "DELL U2720Q", serialNumber: "SN42",
                                                      physicalSize: Size(width: 597, height: 336)).edid(preferred: Size(width: 2560, height: 1440))
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        // A second monitor whose EDID has a binary serial alone: wlroots writes it "0x%08X".
        let numbered = file + ".2"
        defer { try? FileManager.default.removeItem(atPath: numbered) }
        try Data(try ServerControl.MonitorIdentity(manufacturer: "DEL", model: "DELL P2419H", binarySerial: 0x1234_ABCD)
            .edid(preferred: Size(width: 1920, height: 1080))).write(to: URL(fileURLWithPath: numbered))
        let (status, out, err) = try await run(["--wayland", "--monitors", "800x600", "--", "/bin/sh", "-c",
                                                "multihead plug HDMI-1 1920x1080+800+0 --scale 1.5 && multihead plug DP-2 1024x768+2080+0 --edid \(file) && multihead plug DP-3 800x600+3104+0 --edid \(numbered) && multihead screens --json; multihead plug DP-4 800x600+0+600 --product-code 7; echo pc=$?"])
        #expect(status == 0, "\(err)")
        let json = try #require(out.split(separator: "\n").first { $0.hasPrefix("[") })
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let hdmi = try #require(rows.first { $0["name"] as? String == "HDMI-1" })
        #expect(hdmi["scale"] as? Double == 1.5)
        let frame = try #require(hdmi["frame"] as? [String: Int])
        #expect(frame == ["x": 800, "y": 0, "width": 1280, "height": 720])
        // The compositor's list for a 1920x1080 monitor: its mode, then the common smaller ones.
        let modes = try #require(hdmi["modes"] as? [[String: Any]])
        #expect(modes.map { "\($0["width"] ?? 0)x\($0["height"] ?? 0)" }
                == ["1920x1080", "1680x1050", "1600x900", "1280x1024", "1280x800", "1280x720", "1024x768", "800x600", "640x480"])
        let dell = try #require(rows.first { $0["name"] as? String == "DP-2" })
        #expect(dell["manufacturer"] as? String == "Dell Inc." && dell["model"] as? String == "DELL U2720Q" && dell["serialNumber"] as? String == "SN42")
        #expect(rows.first { $0["name"] as? String == "DP-3" }?["serialNumber"] as? String == "0x1234ABCD")
        #expect(out.contains("pc=64") && err.contains("--product-code and --binary-serial are an EDID's"), "\(out)\(err)")
    }

    /// The EDID `xrandr --props` prints under an output, as bytes.
    static func edid(of output: String, inXrandr text: String) -> [UInt8]? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(output + " ") }),
              let tag = lines[start...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "EDID:" }) else { return nil }
        var bytes: [UInt8] = []
        for line in lines[(tag + 1)...] {
            let hex = line.trimmingCharacters(in: .whitespaces)
            guard !hex.isEmpty, hex.count % 2 == 0, hex.allSatisfy(\.isHexDigit) else { break }
            var i = hex.startIndex
            while i < hex.endIndex {
                let j = hex.index(i, offsetBy: 2)
                bytes.append(UInt8(hex[i..<j], radix: 16) ?? 0)
                i = j
            }
        }
        return bytes.isEmpty ? nil : bytes
    }
}
