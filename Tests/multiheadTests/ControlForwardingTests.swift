import MultiheadControl
@testable import multihead
import Testing

/// `plug`, `unplug` and `mode` with `MULTIHEAD_CONTROL` set: the words the request's declaration reads,
/// without the argument parser; help and `--display` left to it.
@Suite("Forwarding a command line to the control socket")
struct ControlForwardingTests {
    @Test("the command's own --force is dropped; after --, every word is the request's")
    func words() {
        #expect(ControlForwarding.requestWords(["EXT-1", "1280x720+0+0", "--primary", "--force", "--rate=59.94"])
                == ["EXT-1", "1280x720+0+0", "--primary", "--rate=59.94"])
        #expect(ControlForwarding.requestWords(["--", "--force", "--help"]) == ["--", "--force", "--help"])
    }

    @Test("help and --display are the argument parser's")
    func leftToTheParser() {
        for args in [["--help"], ["A", "-h"], ["A", "1x1+0+0", "--display", ":1"], ["A", "1x1+0+0", "--display=:1"]] {
            #expect(ControlForwarding.requestWords(args) == nil, "\(args)")
        }
    }

    @Test("the forwarded words make the value the command makes: one parser")
    func sameValue() throws {
        let args = ["EXT-1", "1280x720+0+0", "--force", "--primary", "--serial-number", "A1"]
        let words = try #require(ControlForwarding.requestWords(args))
        #expect(try PlugRequest.declaration.parse(words, command: "plug").identity.serialNumber == "A1")
    }
}
