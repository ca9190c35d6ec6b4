import Multihead
import MultiheadServerControl

extension VirtualServer {
    /// The video memory Xorg+dummy is configured with, in KiB (its `VideoRam`): its framebuffer must fit.
    static let dummyVideoRAM = 256_000

    /// Checks, before any server is started or reset, that a kind can show this layout, throwing what the
    /// start would otherwise meet half-way (a server already reset, a lease already ended): each monitor
    /// named and sized; a desktop within 16-bit coordinates (32767 pixels); on Xorg+dummy a framebuffer
    /// within its video memory; on the wayland kind each output within the compositor's limits. Every refusal names the sizes (`invalidMonitor`: a usage error). `framebuffer`: one the
    /// caller chose, else the one the start gives (`framebuffer(for:monitors:)`).
    package static func checkLayout(_ kind: Kind, monitors: [Monitor], framebuffer chosen: Size? = nil) throws {
        for m in monitors {
            guard m.frame.isFinite, !m.frame.isEmpty else { throw ServerControlError.invalidMonitor("\(m.name) has no size") }
            try ServerControl.validate(name: m.name)
            try kind.implementation.check(m)
        }
        let fb = chosen ?? framebuffer(for: kind, monitors: monitors)
        let (width, height) = (Int(fb.width), Int(fb.height))
        if let m = monitors.first(where: { $0.frame.maxX > 32767 || $0.frame.maxY > 32767 }) {
            throw ServerControlError.invalidMonitor(
                "\(m.name.terminalEscaped) ends at \(Int(m.frame.maxX)),\(Int(m.frame.maxY)): a desktop is at most 32767x32767 pixels (X's and Wayland's 16-bit coordinates)")
        }
        try kind.implementation.check(framebufferWidth: width, height: height)
    }

    /// The framebuffer `start` gives a layout: the kind's default, grown to the layout's bounding box.
    package static func framebuffer(for kind: Kind, monitors: [Monitor]) -> Size {
        monitors.reduce(defaultFramebuffer(for: kind)) {
            Size(width: max($0.width, $1.frame.maxX), height: max($0.height, $1.frame.maxY))
        }
    }
}
