import ArgumentParser
import Multihead
import MultiheadControl

/// The requests as Multihead's Wayland compositor's commands (Compositor/README.md): the same
/// declarations, checked by the same `validate()`, said in the compositor's words.
extension PlugRequest {
    /// `plug NAME mode=WxH[@HZ] pos=X,Y [scale=N] [make=…] [model=…] [serial=…] [size-mm=WxH]`: the
    /// geometry's size is the mode (in pixels), its position the output's place in the layout.
    package func compositorCommand() throws -> [String] {
        let frame = geometry.frame
        if primary { throw UsageError(message: "--primary: Wayland has no primary output (its clients see outputs, none of them first)") }
        if identity.productCode != nil || identity.binarySerial != nil {
            throw UsageError(message: "--product-code and --binary-serial are an EDID's; a Wayland output has a make, model, serial and size (or give --edid FILE, read as wlroots reads a monitor's)")
        }
        var words = ["plug", name, "mode=" + Self.mode(frame.size, rate: rate), "pos=\(Int(frame.minX)),\(Int(frame.minY))"]
        if let scale { words.append("scale=" + Self.decimal(scale)) }
        if let rotation { words.append("transform=" + rotation.waylandTransform) }
        if let path = identity.edid?.path {
            // What a wlroots compositor reads of a real monitor's EDID: the PNP id (the compositor names its
            // company), the name descriptor else the product code, the serial descriptor else the binary
            // serial, the size in millimetres.
            let bytes = try MonitorIdentityOptions.readEDID(path)
            guard let e = EDID(bytes) else { throw UsageError(message: "\(path.terminalEscaped) holds no EDID a monitor sends: not an EDID base block") }
            words.append("make=" + e.manufacturer)
            words.append("model=" + (e.model ?? Self.hex(UInt32(e.productCode), digits: 4)))
            // The serial descriptor's text, else the binary serial as wlroots writes it ("0x%08X").
            if let text = e.serialText {
                words.append("serial=" + text)
            } else if e.binarySerial != 0 {
                words.append("serial=" + Self.hex(e.binarySerial, digits: 8))
            }
            if let mm = e.physicalSize, mm.width >= 1, mm.height >= 1 { words.append("size-mm=\(Int(mm.width))x\(Int(mm.height))") }
            return words
        }
        if let m = identity.manufacturer { words.append("make=" + m) }
        if let m = identity.model { words.append("model=" + m) }
        if let s = identity.serialNumber { words.append("serial=" + s) }
        if let size = try identity.size() { words.append("size-mm=\(Int(size.width))x\(Int(size.height))") }
        return words
    }

    /// A number as the compositor takes it, whole ones without a fraction, others in full (1.125 stays
    /// 1.125: a scale on the 1/120 grid is sent as it is, not rounded to two places).
    package static func decimal(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    /// "0x%0NX", as wlroots writes a product code it has no name for.
    static func hex(_ v: UInt32, digits: Int) -> String {
        let text = String(v, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// A mode's word: `WxH`, with `@HZ` when a rate is given.
    static func mode(_ size: Size, rate: Double?) -> String {
        "\(Int(size.width))x\(Int(size.height))" + (rate.map { "@\($0)" } ?? "")
    }
}

extension ModeRequest {
    /// `mode NAME mode=WxH[@HZ] [scale=N]`.
    package func compositorCommand() -> [String] {
        ["mode", name, "mode=" + PlugRequest.mode(size.size, rate: rate)] + (scale.map { ["scale=" + PlugRequest.decimal($0)] } ?? [])
            + (rotation.map { ["transform=" + $0.waylandTransform] } ?? [])
    }
}
