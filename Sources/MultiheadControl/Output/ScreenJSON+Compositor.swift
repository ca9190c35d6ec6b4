import Multihead

extension ScreenJSON {
    /// A screen from one of the compositor's OUTPUT objects (`outputs`, `plug`, `mode`): its frame in
    /// layout coordinates (the mode over the scale, as xdg-output gives it), its one mode, its identity;
    /// `main` and `primary` for the first output plugged. Nil when it is not of the contract's form.
    package init?(compositorOutput v: JSONValue, isMain: Bool) {
        guard let name = v["name"]?.string, let frame = v["frame"].flatMap(Frame.init(json:)),
              let mode = v["mode"], let w = mode["width"]?.int, let h = mode["height"]?.int,
              case .number(let rate)? = mode["refreshRate"], case .number(let scale)? = v["scale"] else { return nil }
        // A turned output reports its current mode turned, as X does for a turned CRTC.
        let turn = v["transform"]?.string.flatMap(MonitorRotation.init(waylandTransform:)) ?? .normal
        let shown = turn.turning(Size(width: Double(w), height: Double(h)))
        let current = Mode(width: Int(shown.width), height: Int(shown.height), refreshRate: (rate * 100).rounded() / 100, interlaced: false)
        let serial = v["serial"]?.string
        self.name = name
        main = isMain
        primary = isMain
        standIn = false
        outputs = [name]
        mirrors = nil
        rotation = turn.degrees
        reflection = "none"
        self.frame = frame
        physicalSize = v["physicalSize"].flatMap(Extent.init(json:)) ?? Extent(width: 0, height: 0)
        manufacturer = v["make"]?.string
        model = v["model"]?.string
        serialNumber = serial?.isEmpty == false ? serial : nil
        self.scale = scale
        currentMode = current
        // The output's list (its preferred mode first), as a monitor's EDID gives X its modes.
        let listed: [Mode]
        if case .array(let items)? = v["modes"] {
            listed = items.compactMap { m -> Mode? in
                guard let w = m["width"]?.int, let h = m["height"]?.int, case .number(let r)? = m["refresh"] else { return nil }
                return Mode(width: w, height: h, refreshRate: (r * 100).rounded() / 100, interlaced: false)
            }
        } else {
            listed = []
        }
        modes = listed.isEmpty ? [current] : listed
    }
}
