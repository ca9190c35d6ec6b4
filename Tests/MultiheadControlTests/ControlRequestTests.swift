import Foundation
import Multihead
@testable import MultiheadControl
import Testing

/// A control socket line read into a request, and the command line that makes the same value.
@Suite("Control socket requests")
struct ControlRequestTests {
    func parse(_ text: String) -> Result<ControlRequest, ControlRefusal> { ControlRequest.parse(Array(text.utf8)) }

    /// The code a line is refused with (nil: taken).
    func code(_ text: String) -> String? {
        if case .failure(let r) = parse(text) { return r.code.rawValue }
        return nil
    }

    /// Words parsed, encoded, sent as a line and decoded: the value the socket gets is the value the
    /// command line made.
    func roundTrip<R: ControlRequestValue>(_ type: R.Type, _ words: [String]) throws {
        let parsed = try R.declaration.parse(words, command: R.name.rawValue)
        let members = R.declaration.encode(parsed).map { (key: $0.0, value: $0.1) }
        let line = JSONText.members([(key: "request", value: .string(R.name.rawValue))] + members).text
        #expect(try parse(line).get().decode(R.self) == parsed, "\(R.name): \(words) as \(line)")
    }

    @Test("a request's fields decode to the value its command line makes")
    func decoding() throws {
        let plug = try parse(#"{"request":"plug","name":"HDMI-1","geometry":"1280x720+0+0","primary":true,"rate":59.94,"serialNumber":"A1","id":3}"#).get()
        #expect(plug.name == .plug && plug.id == .number(3))
        let words = ["HDMI-1", "1280x720+0+0", "--primary", "--rate=59.94", "--serial-number", "A1"]
        #expect(try plug.decode(PlugRequest.self) == PlugRequest.declaration.parse(words, command: "plug"))
        let value = try plug.decode(PlugRequest.self)
        #expect(value.geometry.frame == Rect(x: 0, y: 0, width: 1280, height: 720) && value.rate == 59.94 && value.identity.serialNumber == "A1")
        let off = try parse(#"{"request":"unplug","name":"EXT-1","keepPrimary":false}"#).get()
        #expect(try off.decode(UnplugRequest.self) == UnplugRequest.declaration.parse(["EXT-1"], command: "unplug"))
        let mode = try parse(#"{"request":"mode","name":"DP-1","size":"800x600","rate":60}"#).get()
        #expect(try mode.decode(ModeRequest.self).size.size == Size(width: 800, height: 600))
        let lease = try parse(#"{"request":"lease","monitors":["1920x1080","800x600"]}"#).get()
        #expect(try lease.decode(LeaseRequest.self).monitors == ["1920x1080", "800x600"])
        // An empty list is one given (the service refuses it), told from none (the server's own layout);
        // `wm` left out is the server's default, told from false.
        let empty = try parse(#"{"request":"lease","monitors":[],"wm":false}"#).get().decode(LeaseRequest.self)
        #expect(empty.monitors == [] && empty.wm == false)
        let none = try parse(#"{"request":"lease","monitors":null}"#).get().decode(LeaseRequest.self)
        #expect(none.monitors == nil && none.wm == nil)
        #expect(LeaseRequest.declaration.encode(empty).map(\.0) == ["monitors", "wm"])
    }

    @Test("each request's fields are its declaration's, typed by its properties' types")
    func declaredFields() {
        // Each field's JSON type follows from its property's Swift type (no list of them is kept to compare:
        // a new option is its declaration's line alone).
        let plug = Dictionary(uniqueKeysWithValues: ControlRequest.Name.plug.fields.map { ($0.key, $0) })
        #expect(ControlRequest.Name.plug.fields.prefix(2).map(\.key) == ["name", "geometry"])
        #expect(ControlRequest.Name.plug.fields.filter(\.isPositional).count == 2)
        #expect(plug["primary"]?.type == .flag && plug["rate"]?.type == .number && plug["rotation"]?.type == .string)
        // The identity group's fields are plug's own.
        #expect(plug["serialNumber"]?.type == .string && plug["edid"]?.type == .path && plug["binarySerial"]?.type == .wholeNumber)
        #expect(ControlRequest.Name.pixel.fields.map(\.key) == ["x", "y", "screen"])
        #expect(ControlRequest.Name.pixel.fields.first?.type == .wholeNumber)
        #expect(ControlRequest.Name.screenshot.commonFields.map(\.key) == ["directory", "lease"])
        #expect(ControlRequest.Name.unplug.commonFields.map(\.key) == ["lease"])
        #expect(ControlRequest.Name.lease.commonFields.isEmpty && ControlRequest.Name.hello.fields.isEmpty)
        // The command's help names every field: options as their flags, positional ones as <key>.
        let helps: [(ControlRequest.Name, String)] = [(.plug, PlugRequest.declaration.help), (.unplug, UnplugRequest.declaration.help),
                                                      (.mode, ModeRequest.declaration.help), (.screenshot, ScreenshotRequest.declaration.help),
                                                      (.pixel, PixelRequest.declaration.help), (.lease, LeaseRequest.declaration.help),
                                                      (.move_window, MoveWindowRequest.declaration.help),
                                                      (.fullscreen_window, FullscreenWindowRequest.declaration.help)]
        #expect(Set(helps.map(\.0.rawValue)) == Set(ControlRequest.Name.allCases.filter { !$0.fields.isEmpty }.map(\.rawValue)))
        for (name, help) in helps {
            for field in name.fields {
                let word = field.isPositional ? "<\(field.key)>" : ControlField.option(for: field.key)
                #expect(help.contains(word + " ") || help.contains(word + "\n"), "\(name): \(word)")
            }
        }
        #expect(PlugRequest.declaration.usage("multihead plug").hasPrefix("multihead plug <name> <geometry> [--primary] [--rate <rate>]"))
    }

    @Test("the command line's words and the socket's fields are one declaration: parsed, sent and decoded, a request is the same value")
    func roundTrips() throws {
        try roundTrip(PlugRequest.self, ["HDMI-1", "1280x720+1920+0", "--primary", "--rate", "59.94", "--manufacturer", "DEL", "--model", "U2720Q",
                                         "--serial-number", "A1", "--physical-size", "597x336mm", "--scale", "1.5", "--rotation", "left"])
        try roundTrip(PlugRequest.self, ["X", "10x10+0+0", "--edid", "/tmp/e.bin"])
        try roundTrip(PlugRequest.self, ["X", "10x10+0+0", "--product-code", "7"])
        try roundTrip(PlugRequest.self, ["X", "10x10+0+0", "--binary-serial=4294967295"])
        try roundTrip(UnplugRequest.self, ["EXT-1", "--keep-primary"])
        try roundTrip(ModeRequest.self, ["DP-1", "800x600", "--rate", "75", "--scale", "2", "--rotation", "inverted"])
        try roundTrip(ScreenshotRequest.self, ["--screen", "DP-1", "-o", "/tmp/a.png"])
        try roundTrip(PixelRequest.self, ["3", "4", "--screen", "DP-1"])
        try roundTrip(LeaseRequest.self, ["--monitors", "1920x1080", "--monitors", "800x600", "--wm", "true"])
        try roundTrip(LeaseRequest.self, ["--wm=false"])
        #expect(refusal(LeaseRequest.self, ["--wm", "yes"]) == "--wm is true or false, not \"yes\"")
        try roundTrip(MoveWindowRequest.self, ["12", "DP-1", "--x", "1", "--y", "2", "--width", "3", "--height", "4"])
        try roundTrip(FullscreenWindowRequest.self, ["12", "DP-1"])
    }

    /// The message a command line's words are refused with (nil: taken).
    func refusal<R: ControlRequestValue>(_ type: R.Type, _ words: [String]) -> String? {
        do {
            _ = try R.declaration.parse(words, command: R.name.rawValue)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("the command line's words: options anywhere, = or the next word, -- ends options, a negative number is a value; mistakes say what was meant")
    func words() throws {
        let plug = try PlugRequest.declaration.parse(["--rate", "60", "A", "--model=-h", "1x1+0+0", "--primary"], command: "plug")
        #expect(plug.name == "A" && plug.rate == 60 && plug.identity.model == "-h" && plug.primary)
        #expect(try UnplugRequest.declaration.parse(["--", "-X"], command: "unplug").name == "-X")
        #expect(refusal(PlugRequest.self, ["A", "1x1+0+0", "--rate"]) == "plug: --rate needs a value")
        #expect(refusal(PlugRequest.self, ["A"]) == "plug needs <geometry>")
        #expect(refusal(PlugRequest.self, ["A", "1x1+0+0", "--fly"])?.hasPrefix("plug has no option --fly; its options: --primary, --rate,") == true)
        #expect(refusal(PlugRequest.self, ["A", "1x1+0+0", "B"])?.contains("\"B\" is one word too many") == true)
        #expect(refusal(PlugRequest.self, ["A", "1x1+0+0", "--primary=yes"]) == "plug: --primary is a flag: it takes no value")
        #expect(refusal(PlugRequest.self, ["A", "1x1+0+0", "--model", "a", "--model", "b"]) == "plug: --model is given twice")
        #expect(refusal(PlugRequest.self, ["A", "1x1+0+0", "--rate", "abc"])?.contains("\"abc\"") == true)
        #expect(refusal(PlugRequest.self, ["A", "1x1+0+0", "--rate", "-5"]) == "--rate must be ≥ 0, not -5")
        #expect(refusal(PlugRequest.self, ["A", "-100x100+0+0"])?.contains("-100x100+0+0") == true)
        #expect(refusal(PlugRequest.self, ["A", "1x1+0+0", "--rotation", "sideways"])?.contains("sideways") == true)
        #expect(refusal(ModeRequest.self, ["A", "40000x10"])?.contains("at most 32767x32767") == true)
        #expect(refusal(ScreenshotRequest.self, []) == "screenshot needs -o/--output")
        #expect(refusal(ScreenshotRequest.self, ["-o", "a.jpg"])?.contains(".png") == true)
    }

    @Test("a value that begins with - is a value: refused by the declaration's own check, never taken for an option")
    func dashValues() throws {
        let plug = try parse(#"{"request":"plug","name":"--primary","geometry":"-100x100+0+0"}"#).get()
        #expect(throws: UsageError.self) { try plug.decode(PlugRequest.self) }
        let named = try parse(#"{"request":"unplug","name":"--help"}"#).get()
        #expect(try named.decode(UnplugRequest.self).name == "--help")
        let shot = try parse(#"{"request":"screenshot","screen":"-X","output":"/tmp/a.png"}"#).get()
        #expect(try shot.decode(ScreenshotRequest.self).screen == "-X")
        let identity = try parse(#"{"request":"plug","name":"A","geometry":"1x1+0+0","serialNumber":"--help","model":"-h"}"#).get()
        #expect(try identity.decode(PlugRequest.self).identity.serialNumber == "--help")
        let lease = try parse(#"{"request":"lease","monitors":["-1x1"]}"#).get()
        #expect(try lease.decode(LeaseRequest.self).monitors == ["-1x1"])
    }

    @Test("a relative path is made whole with the client's directory, refused without one")
    func paths() throws {
        let shot = try parse(#"{"request":"screenshot","output":"a.png","directory":"/home/t"}"#).get()
        #expect(try shot.decode(ScreenshotRequest.self).output.path == "/home/t/a.png")
        let bare = try parse(#"{"request":"screenshot","output":"a.png"}"#).get()
        #expect(throws: ControlRefusal.self) { try bare.decode(ScreenshotRequest.self) }
        #expect(code(#"{"request":"plug","name":"A","geometry":"1x1+0+0","directory":"/x"}"#) == nil)
        #expect(code(#"{"request":"unplug","name":"A","directory":"/x"}"#) == "unknownField")
    }

    @Test("what is not a request is refused with a stable code, the id kept when one was read")
    func refusals() throws {
        #expect(code("{") == "malformedRequest")
        #expect(code("[]") == "malformedRequest")
        #expect(code(#"{"name":"x"}"#) == "malformedRequest")
        #expect(code(#"{"request":"fly"}"#) == "unknownRequest")
        #expect(code(#"{"request":"screens","display":":0"}"#) == "unknownField")
        #expect(code(#"{"request":"plug","force":true}"#) == "unknownField")
        if case .failure(let r) = parse(#"{"request":"fly","id":"x"}"#) { #expect(r.id == .string("x")) }
        #expect(code(#"{"request":"plug","name":"X"}"#) == "invalidField")
        #expect(code(#"{"request":"plug","name":"X","geometry":"1x1+0+0","arguments":["X"]}"#) == "unknownField")
        if case .failure(let r) = parse(#"{"request":"mode","name":"X","size":["800x600"]}"#) { #expect(r.code == .invalidField) } else {
            Issue.record("a list for a size was taken")
        }
    }

    @Test("a field of another type is refused, never converted; null leaves an option out")
    func fieldTypes() throws {
        #expect(code(#"{"request":"plug","name":5,"geometry":"1x1+0+0"}"#) == "invalidField")
        #expect(code(#"{"request":"plug","name":"A","geometry":"1x1+0+0","primary":"yes"}"#) == "invalidField")
        #expect(code(#"{"request":"plug","name":"A","geometry":"1x1+0+0","rate":"60"}"#) == "invalidField")
        #expect(code(#"{"request":"pixel","x":1.5,"y":0}"#) == "invalidField")
        #expect(code(#"{"request":"pixel","x":-1,"y":0}"#) == "invalidField")
        #expect(code(#"{"request":"lease","monitors":"1920x1080"}"#) == "invalidField")
        #expect(code(#"{"request":"lease","monitors":[1920]}"#) == "invalidField")
        #expect(code(#"{"request":"screens","lease":7}"#) == "invalidField")
        #expect(code(#"{"request":"hello","lease":"L-1"}"#) == "unknownField")
        #expect(code(#"{"request":"plug","name":"A","geometry":null}"#) == "invalidField")
        let plug = try parse(#"{"request":"plug","name":"A","geometry":"1x1+0+0","rate":null,"lease":"L-1"}"#).get()
        #expect(try plug.decode(PlugRequest.self).rate == nil)
        #expect(plug.lease == "L-1")
    }

    @Test("a key twice, deep nesting, text after the value and JSON's other mistakes are malformedRequest")
    func strictJSON() {
        #expect(code(#"{"request":"screens","request":"release"}"#) == "malformedRequest")
        #expect(code(#"{"request":"pixel","x":1,"x":2,"y":0}"#) == "malformedRequest")
        #expect(code(String(repeating: "[", count: 100_000)) == "malformedRequest")
        for bad in [#"{"request":"screens"} x"#, #"{"request":'screens'}"#, #"{"request":"screens",}"#, #"{"request":"pixel","x":01,"y":0}"#,
                    #"{"request":"pixel","x":NaN,"y":0}"#, #"{"request":"pixel","x":1e999,"y":0}"#, "{\"request\":\"scr\u{1}eens\"}",
                    #"{"request":"\ud800"}"#] {
            #expect(code(bad) == "malformedRequest", "\(bad)")
        }
        #expect(JSONValue.parse(Array(#" {"a" : [1, -2.5e3, "\u00e9\ud83d\ude00\n", {}, []] } "#.utf8))
                == .object(["a": .array([.number(1), .number(-2500), .string("é😀\n"), .object([:]), .array([])])]))
        #expect(JSONValue.parse([0x22, 0xFF, 0x22]) == nil)
    }

    @Test("true and false stay booleans, numbers stay numbers")
    func values() {
        #expect(JSONValue.parse(Array(#"[true,1,0,"1",null]"#.utf8)) == .array([.bool(true), .number(1), .number(0), .string("1"), .null]))
    }

    @Test("an error answer carries the command line's status, code and message; a success its members and id")
    func answers() {
        let failure = ControlAnswer.failure(CommandFailure(UsageError(message: "no")), id: .number(1)).text
        #expect(failure == #"{"error":{"code":"usage","message":"no","status":64},"id":1,"ok":false}"#)
        #expect(ControlAnswer.success([("kept", .bool(true))], id: nil).text == #"{"kept":true,"ok":true}"#)
    }
}
