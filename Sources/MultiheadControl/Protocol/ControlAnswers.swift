/// The answers' members, one typed value per request: the names docs/control-socket.md's table lists are
/// written here once, for the service that answers and the client that reads (`init?(answer:)`).
/// `ControlAnswer` wraps them with `ok` and the request's `id`.
package protocol ControlAnswerBody {
    /// The members, as the answer's line carries them.
    var members: [(key: String, value: JSONText)] { get }
}

/// `hello`: the protocol, the kind, and the server running.
package struct HelloAnswer: ControlAnswerBody {
    package var protocolVersion: Int
    package var kind: String
    /// The X display (Xwayland's on the wayland kind), null when none runs.
    package var display: String?
    /// The Wayland socket's name, on the wayland kind only (absent on X).
    package var waylandDisplay: String??
    /// On the wayland kind only: "lazy" (Xwayland starts with the first X client) or "unavailable" (no X
    /// display was free for it: Wayland clients only).
    package var xwayland: String?
    package var pid: Int32?
    package var leased: Bool

    package init(protocolVersion: Int, kind: String, display: String?, waylandDisplay: String?? = nil, xwayland: String? = nil,
                 pid: Int32?, leased: Bool) {
        (self.protocolVersion, self.kind, self.display, self.waylandDisplay) = (protocolVersion, kind, display, waylandDisplay)
        (self.xwayland, self.pid, self.leased) = (xwayland, pid, leased)
    }

    package var members: [(key: String, value: JSONText)] {
        [("protocol", .int(protocolVersion)), ("kind", .string(kind)), ("display", display.map(JSONText.string) ?? .null)]
            + (waylandDisplay.map { [("waylandDisplay", $0.map(JSONText.string) ?? .null)] } ?? [])
            + (xwayland.map { [("xwayland", .string($0))] } ?? [])
            + [("pid", pid.map { .int(Int($0)) } ?? .null), ("leased", .bool(leased))]
    }
}

/// `lease`: the new lease, where its clients reach the server, and whether it is another server.
package struct LeaseAnswer: ControlAnswerBody {
    /// Where clients reach the server: an X server's display and authority file, or the compositor's
    /// Wayland socket, runtime folder and Xwayland's display.
    package enum Address {
        case x(display: String, xauthority: String)
        case wayland(waylandDisplay: String, runtimeDirectory: String, display: String?)
    }

    package var lease: String
    package var address: Address
    package var pid: Int32
    package var warm: Bool
    package var replaced: Bool
    package var reason: String?

    package init(lease: String, address: Address, pid: Int32, warm: Bool, replaced: Bool, reason: String?) {
        (self.lease, self.address, self.pid, self.warm, self.replaced, self.reason) = (lease, address, pid, warm, replaced, reason)
    }

    package var members: [(key: String, value: JSONText)] {
        let place: [(key: String, value: JSONText)] = switch address {
        case .x(let display, let xauthority): [("display", .string(display)), ("xauthority", .string(xauthority))]
        case .wayland(let socket, let runtime, let display):
            [("waylandDisplay", .string(socket)), ("runtimeDirectory", .string(runtime)), ("display", display.map(JSONText.string) ?? .null)]
        }
        return [("lease", .string(lease))] + place
            + [("pid", .int(Int(pid))), ("warm", .bool(warm)), ("replaced", .bool(replaced)), ("reason", reason.map(JSONText.string) ?? .null)]
    }
}

/// `release`: whether the server was kept for the next lease, else why not.
package struct ReleaseAnswer: ControlAnswerBody {
    package var kept: Bool
    package var reason: String?

    package init(kept: Bool, reason: String?) { (self.kept, self.reason) = (kept, reason) }

    package var members: [(key: String, value: JSONText)] { [("kept", .bool(kept)), ("reason", reason.map(JSONText.string) ?? .null)] }
}

/// `plug` and `unplug`: the configuration serial the change made (docs/control-socket.md, "The
/// configuration serial").
package struct ChangeAnswer: ControlAnswerBody {
    package var configurationSerial: Int

    package init(configurationSerial: Int) { self.configurationSerial = configurationSerial }

    package var members: [(key: String, value: JSONText)] { [("configurationSerial", .int(configurationSerial))] }
}

/// `mode`: the monitor, the mode it has now and the configuration serial the change made.
package struct ModeAnswer: ControlAnswerBody {
    package var name: String
    package var mode: ScreenJSON.Mode
    package var configurationSerial: Int

    package init(name: String, mode: ScreenJSON.Mode, configurationSerial: Int) {
        (self.name, self.mode, self.configurationSerial) = (name, mode, configurationSerial)
    }

    /// Read from an answer's line; nil when it is not one.
    package init?(answer v: JSONValue) {
        guard let name = v["name"]?.string, let mode = v["mode"].flatMap(ScreenJSON.Mode.init(json:)),
              let serial = v["configurationSerial"]?.int else { return nil }
        self.init(name: name, mode: mode, configurationSerial: serial)
    }

    package var members: [(key: String, value: JSONText)] {
        [("name", .string(name)), ("mode", mode.json), ("configurationSerial", .int(configurationSerial))]
    }
}

/// `screens`: the screens as `multihead screens --json` prints them.
package struct ScreensAnswer: ControlAnswerBody {
    package var screens: [ScreenJSON]
    /// The configuration serial the screens are.
    package var configurationSerial: Int

    package init(screens: [ScreenJSON], configurationSerial: Int) { (self.screens, self.configurationSerial) = (screens, configurationSerial) }

    /// Read from an answer's line; nil when it is not one.
    package init?(answer v: JSONValue) {
        guard case .array(let items)? = v["screens"], let serial = v["configurationSerial"]?.int else { return nil }
        self.init(screens: items.compactMap(ScreenJSON.init(json:)), configurationSerial: serial)
    }

    package var members: [(key: String, value: JSONText)] { [("screens", screens.json), ("configurationSerial", .int(configurationSerial))] }
}

/// `screenshot`: the file written, whole, and the picture's size.
package struct ScreenshotAnswer: ControlAnswerBody {
    package var output: String
    package var width: Int
    package var height: Int

    package init(output: String, width: Int, height: Int) { (self.output, self.width, self.height) = (output, width, height) }

    /// Read from an answer's line; nil when it is not one.
    package init?(answer v: JSONValue) {
        guard let output = v["output"]?.string, let width = v["width"]?.int, let height = v["height"]?.int else { return nil }
        self.init(output: output, width: width, height: height)
    }

    package var members: [(key: String, value: JSONText)] { [("output", .string(output)), ("width", .int(width)), ("height", .int(height))] }
}

/// `pixel`: one pixel's colour, as `#rrggbb` and by component.
package struct PixelAnswer: ControlAnswerBody {
    package var red: Int
    package var green: Int
    package var blue: Int

    /// A pixel value 0xRRGGBB.
    package init(_ value: UInt32) {
        (red, green, blue) = (Int(value >> 16 & 0xFF), Int(value >> 8 & 0xFF), Int(value & 0xFF))
    }

    /// `#rrggbb`, lower case.
    package var hex: String {
        let digits = Array("0123456789abcdef")
        return "#" + String([red, green, blue].flatMap { [digits[$0 >> 4], digits[$0 & 0xF]] })
    }

    package var members: [(key: String, value: JSONText)] {
        [("pixel", .string(hex)), ("red", .int(red)), ("green", .int(green)), ("blue", .int(blue))]
    }
}
