/// A screen read back from its JSON (the control socket's answer): the inverse of `ScreenJSON.json`.
package extension ScreenJSON {
    init?(json v: JSONValue) {
        guard case .string(let name)? = v["name"], case .bool(let main)? = v["main"], case .bool(let primary)? = v["primary"],
              case .bool(let standIn)? = v["standIn"], case .array(let outputs)? = v["outputs"],
              let rotation = v["rotation"]?.int, case .string(let reflection)? = v["reflection"],
              let frame = v["frame"].flatMap(Frame.init(json:)), let size = v["physicalSize"].flatMap(Extent.init(json:)),
              case .number(let scale)? = v["scale"], case .array(let modes)? = v["modes"] else { return nil }
        self.name = name
        self.main = main
        self.primary = primary
        self.standIn = standIn
        self.outputs = outputs.compactMap(\.string)
        mirrors = v["mirrors"]?.string
        self.rotation = rotation
        self.reflection = reflection
        self.frame = frame
        physicalSize = size
        manufacturer = v["manufacturer"]?.string
        model = v["model"]?.string
        serialNumber = v["serialNumber"]?.string
        self.scale = scale
        currentMode = v["currentMode"].flatMap(Mode.init(json:))
        self.modes = modes.compactMap(Mode.init(json:))
    }
}

package extension ScreenJSON.Frame {
    init?(json v: JSONValue) {
        guard let x = v["x"]?.int, let y = v["y"]?.int, let w = v["width"]?.int, let h = v["height"]?.int else { return nil }
        self.init(x: x, y: y, width: w, height: h)
    }
}

package extension ScreenJSON.Extent {
    init?(json v: JSONValue) {
        guard let w = v["width"]?.int, let h = v["height"]?.int else { return nil }
        self.init(width: w, height: h)
    }
}

package extension ScreenJSON.Mode {
    init?(json v: JSONValue) {
        guard let w = v["width"]?.int, let h = v["height"]?.int, case .number(let rate)? = v["refreshRate"],
              case .bool(let interlaced)? = v["interlaced"] else { return nil }
        self.init(width: w, height: h, refreshRate: rate, interlaced: interlaced)
    }
}
