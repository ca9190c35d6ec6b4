import ArgumentParser
import Foundation
@testable import MultiheadControl
import Testing

/// A control socket line read into a request, and the command line it stands for.
@Suite("Control socket requests")
struct ControlRequestTests {
    func parse(_ text: String) -> Result<ControlRequest, ControlRefusal> { ControlRequest.parse(Array(text.utf8)) }

    /// The code a line is refused with (nil: taken).
    func code(_ text: String) -> String? {
        if case .failure(let r) = parse(text) { return r.code.rawValue }
        return nil
    }

    @Test("a request's fields become its declaration's arguments: options in kebab case, then the positional ones after --")
    func arguments() throws {
        let plug = try parse(#"{"request":"plug","name":"HDMI-1","geometry":"1280x720+0+0","primary":true,"rate":59.94,"serialNumber":"A1","id":3}"#).get()
        #expect(plug.name == .plug && plug.id == .number(3))
        #expect(try plug.arguments() == ["--primary", "--rate=59.94", "--serial-number=A1", "--", "HDMI-1", "1280x720+0+0"])
        let off = try parse(#"{"request":"unplug","name":"EXT-1","keepPrimary":false}"#).get()
        #expect(try off.arguments() == ["--", "EXT-1"])
        let mode = try parse(#"{"request":"mode","name":"DP-1","size":"800x600","rate":60}"#).get()
        #expect(try mode.arguments() == ["--rate=60", "--", "DP-1", "800x600"])
        let lease = try parse(#"{"request":"lease","monitors":["1920x1080","800x600"]}"#).get()
        #expect(try lease.decode(LeaseRequest.self).monitors == ["1920x1080", "800x600"])
    }

    @Test("each request's fields are its declaration's properties, typed by them")
    func declaredFields() {
        let plug = ControlRequest.Name.plug.fields.map { "\($0.key):\($0.type)\($0.isPositional ? "!" : "")" }
        #expect(plug == ["name:string!", "geometry:string!", "primary:flag", "rate:number", "scale:number", "rotation:string", "manufacturer:string",
                         "model:string", "serialNumber:string", "physicalSize:string", "edid:path", "productCode:wholeNumber", "binarySerial:wholeNumber"])
        #expect(ControlRequest.Name.pixel.fields.map(\.key) == ["x", "y", "screen"])
        #expect(ControlRequest.Name.pixel.fields.first?.type == .wholeNumber)
        #expect(ControlRequest.Name.screenshot.commonFields.map(\.key) == ["directory", "lease"])
        #expect(ControlRequest.Name.unplug.commonFields.map(\.key) == ["lease"])
        #expect(ControlRequest.Name.lease.commonFields.isEmpty && ControlRequest.Name.hello.fields.isEmpty)
        // Each declaration's list of fields is what its properties declare: a property added without its
        // field (or the other way round) fails here.
        for name in ControlRequest.Name.allCases {
            guard let declaration = name.declaration else { continue }
            #expect(declaration.fields == ControlFields.of(declaration), "\(declaration).fields does not list what its properties declare")
        }
        // Each option a field names is one the declaration's help lists (reading a declaration's fields
        // stops the program at a property of no field type, so none is left out unseen).
        for name in ControlRequest.Name.allCases {
            guard let declaration = name.declaration else { continue }
            let help = declaration.helpMessage(columns: 1000)
            for field in name.fields where !field.isPositional {
                #expect(help.contains(field.option + " ") || help.contains(field.option + "\n"), "\(name): \(field.option)")
            }
            #expect(name.fields.filter(\.isPositional).allSatisfy { help.contains("<\($0.key)>") }, "\(name)")
        }
    }

    @Test("the command line's arguments and the socket's fields are one declaration: parsed, sent and decoded, a request is the same")
    func roundTrip() throws {
        let cases: [(ControlRequest.Name, [String])] = [
            (.plug, ["HDMI-1", "1280x720+1920+0", "--primary", "--rate", "59.94", "--manufacturer", "DEL", "--model", "U2720Q",
                     "--serial-number", "A1", "--physical-size", "597x336mm"]),
            (.plug, ["X", "10x10+0+0", "--edid", "/tmp/e.bin"]),
            (.unplug, ["EXT-1", "--keep-primary"]),
            (.mode, ["DP-1", "800x600", "--rate", "75"]),
            (.screenshot, ["--screen", "DP-1", "-o", "/tmp/a.png"]),
            (.pixel, ["3", "4", "--screen", "DP-1"]),
            (.lease, ["--monitors", "1920x1080", "--monitors", "800x600"]),
        ]
        for (name, argv) in cases {
            let declaration = try #require(name.declaration)
            let parsed = try declaration.parse(argv)
            let members = ControlFields.members(of: parsed)
            let line = JSONText.members([(key: "request", value: .string(name.rawValue))] + members).bytes
            let request = try parse(String(decoding: line, as: UTF8.self)).get()
            let decoded = try request.decode(declaration)
            #expect(ControlFields.members(of: decoded).map { "\($0.key)=\($0.value.text)" } == members.map { "\($0.key)=\($0.value.text)" },
                    "\(name): \(argv)")
        }
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
        #expect(try plug.arguments() == ["--", "A", "1x1+0+0"])
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
