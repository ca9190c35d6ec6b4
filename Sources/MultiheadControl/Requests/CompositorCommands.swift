import Multihead

/// The requests as Multihead's Wayland compositor's commands (Compositor/README.md): the same
/// declarations, checked by the same `validate()`, said in the compositor's words.
extension PlugRequest {
    /// `plug NAME mode=WxH[@HZ] pos=X,Y [scale=N] [make=…] [model=…] [serial=…] [size-mm=WxH]`: the
    /// geometry's size is the mode (in pixels), its position the output's place in the layout.
    package func compositorCommand() throws -> [String] {
        let frame = try pixelGeometry(geometry, example: "1280x720+1920+0")
        if primary { throw UsageError(message: "--primary: Wayland has no primary output (its clients see outputs, none of them first)") }
        if identity.edid != nil {
            throw UsageError(message: "--edid: the Wayland compositor takes a monitor's make, model, serial and size, not an EDID (give --manufacturer, --model, --serial-number, --physical-size)")
        }
        var words = ["plug", name, "mode=" + Self.mode(frame.size, rate: rate?.value), "pos=\(Int(frame.minX)),\(Int(frame.minY))"]
        if let scale { words.append("scale=" + String(rate: scale.value)) }
        if let m = identity.manufacturer { words.append("make=" + m) }
        if let m = identity.model { words.append("model=" + m) }
        if let s = identity.serialNumber { words.append("serial=" + s) }
        if let size = try identity.size() { words.append("size-mm=\(Int(size.width))x\(Int(size.height))") }
        return words
    }

    /// A mode's word: `WxH`, with `@HZ` when a rate is given.
    static func mode(_ size: Size, rate: Double?) -> String {
        "\(Int(size.width))x\(Int(size.height))" + (rate.map { "@\($0)" } ?? "")
    }
}

extension ModeRequest {
    /// `mode NAME mode=WxH[@HZ] [scale=N]`.
    package func compositorCommand() throws -> [String] {
        let r = try pixelGeometry(size, example: "1280x720")
        return ["mode", name, "mode=" + PlugRequest.mode(r.size, rate: rate?.value)] + (scale.map { ["scale=" + String(rate: $0.value)] } ?? [])
    }
}

extension ScreenJSON {
    /// A screen from one of the compositor's OUTPUT objects (`outputs`, `plug`, `mode`): its frame in
    /// layout coordinates (the mode over the scale, as xdg-output gives it), its one mode, its identity;
    /// `main` and `primary` for the first output plugged. Nil when it is not of the contract's form.
    package init?(compositorOutput v: JSONValue, isMain: Bool) {
        guard let name = v["name"]?.string, let frame = v["frame"].flatMap(Frame.init(json:)),
              let mode = v["mode"], let w = mode["width"]?.int, let h = mode["height"]?.int,
              case .number(let rate)? = mode["refreshRate"], case .number(let scale)? = v["scale"] else { return nil }
        let current = Mode(width: w, height: h, refreshRate: (rate * 100).rounded() / 100, interlaced: false)
        let serial = v["serial"]?.string
        self.name = name
        main = isMain
        primary = isMain
        standIn = false
        outputs = [name]
        mirrors = nil
        rotation = 0
        reflection = "none"
        self.frame = frame
        physicalSize = v["physicalSize"].flatMap(Extent.init(json:)) ?? Extent(width: 0, height: 0)
        manufacturer = v["make"]?.string
        model = v["model"]?.string
        serialNumber = serial?.isEmpty == false ? serial : nil
        self.scale = scale
        currentMode = current
        modes = [current]
    }
}
