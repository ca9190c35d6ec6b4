import MultiheadControl
@testable import multihead
import Testing

/// `plug`, `unplug` and `mode` with `MULTIHEAD_CONTROL` set: the command line read into the request's
/// fields by its declaration, without the argument parser; anything doubtful left to the parser.
@Suite("Forwarding a command line to the control socket")
struct ControlForwardingTests {
    /// The fields as `key=value` words, in order.
    func words(_ name: ControlRequest.Name, _ args: [String]) -> [String]? {
        ControlForwarding.fields(of: name, args)?.map { "\($0.0)=\($0.1.text)" }
    }

    @Test("positional values in order, --option value and --option=value, flags as true; --force dropped")
    func fields() {
        #expect(words(.plug, ["EXT-1", "1280x720+0+0", "--primary", "--rate=59.94", "--serial-number", "A1", "--force"])
                == ["primary=true", "rate=59.94", "serialNumber=\"A1\"", "name=\"EXT-1\"", "geometry=\"1280x720+0+0\""])
        #expect(words(.mode, ["--scale", "2", "DP-1", "800x600"]) == ["scale=2", "name=\"DP-1\"", "size=\"800x600\""])
        #expect(words(.unplug, ["--", "-X"]) == ["name=\"-X\""])
        #expect(words(.plug, ["A", "1x1+0+0", "--model", "-h"]) == ["model=\"-h\"", "name=\"A\"", "geometry=\"1x1+0+0\""])
    }

    @Test("help, an unknown option, a missing or extra value, a number that is not one, an option twice: the parser's")
    func leftToTheParser() {
        for args in [["--help"], ["A", "1x1+0+0", "--fly"], ["A"], ["A", "1x1+0+0", "extra"], ["A", "1x1+0+0", "--rate", "abc"],
                     ["A", "1x1+0+0", "--rate"], ["A", "1x1+0+0", "--primary=yes"], ["A", "1x1+0+0", "--model", "a", "--model", "b"],
                     ["A", "1x1+0+0", "--display", ":1"]] {
            #expect(words(.plug, args) == nil, "\(args)")
        }
    }
}
