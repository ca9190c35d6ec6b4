import Multihead
import MultiheadX11

/// Everything of a server's state that a test can change and the next test could see, read at one moment:
/// what a reused server must be brought back to. Two servers with equal fingerprints look the same to a
/// client (the pixels aside, which a new window paints over).
package struct ServerFingerprint: Equatable, Sendable {
    /// A property's type, format and value, as Xlib lays them out (`XGetWindowProperty`; an output's as
    /// the RandR reader gives it).
    package typealias Property = RandRBatch.PropertyValue

    /// A CRTC's configuration and its gamma ramps (red, green, blue one after the other).
    package struct Crtc: Equatable, Sendable {
        var x: Int32, y: Int32
        var mode: UInt
        var rotation: UInt16
        var outputs: [UInt]
        var gamma: [UInt16]

        /// What decides what the CRTC shows: an off CRTC keeps its old position, which shows nothing.
        var configuration: [Int] {
            mode == 0 ? [0] + outputs.map { Int($0) } : [Int(x), Int(y), Int(mode), Int(rotation)] + outputs.map { Int($0) }
        }

        /// Equal when they show the same: the configuration and the gamma.
        package static func == (a: Crtc, b: Crtc) -> Bool { a.configuration == b.configuration && a.gamma == b.gamma }
    }

    /// A RandR 1.5 monitor: its name atom, frame, primary flag and outputs.
    package struct Monitor: Equatable, Sendable {
        var name: UInt
        var frame: Rect
        var primary: Bool
        var outputs: [UInt]
    }

    /// The root's children, bottom to top: a window no client of the baseline made is a leftover.
    var windows: [UInt]
    /// The root window's properties by atom.
    var rootProperties: [UInt: Property]
    /// The screen (root window) size in pixels.
    var screenSize: Size
    /// The active monitors, in the server's order.
    var monitors: [Monitor]
    /// Every CRTC by id.
    var crtcs: [UInt: Crtc]
    /// RandR's primary output (0: none).
    var primaryOutput: UInt
    /// Every mode the server knows, by id.
    var modes: Set<UInt>
    /// Each output's modes.
    var outputModes: [UInt: [UInt]]
    /// Each output's properties by atom.
    var outputProperties: [UInt: [UInt: Property]]
    /// The input focus and its revert-to.
    var focus: UInt, focusRevert: Int32
    /// The pointer's position on the root, and the buttons and modifiers held (`XQueryPointer`'s mask).
    var pointerX: Int32, pointerY: Int32, pointerMask: UInt32
    /// The keys held down (`XQueryKeymap`'s 256 bits).
    var keysDown: [UInt8]
    /// XKB's locked and latched modifiers and locked group: Caps Lock left on is a locked modifier.
    var lockedModifiers: UInt8, latchedModifiers: UInt8, lockedGroup: UInt8
    /// The keyboard mapping: its first keycode, keysyms per keycode, and every keysym.
    var firstKeycode: Int32, keysymsPerKeycode: Int32, keysyms: [UInt]
    /// The modifier mapping: keycodes per modifier, then the 8 × that many keycodes.
    var keysPerModifier: Int32, modifierKeycodes: [UInt8]
    /// The pointer's button mapping.
    var pointerMapping: [UInt8]
    /// Access control, screen saver, keyboard and pointer control, font path, XKB controls.
    var settings: ServerSettings
    /// The root window's pixel at the framebuffer's far corner, where no monitor and no test's window
    /// usually is: a root painted over (`xsetroot -solid`) shows there.
    var rootCornerPixel: UInt

    /// The parts in which this state differs from `baseline`, named as a person reads them (empty: none).
    /// A pure function of the two values, so that a test checks it directly.
    package func differences(from baseline: ServerFingerprint) -> [String] {
        var out: [String] = []
        func note(_ differs: Bool, _ what: @autoclosure () -> String) { if differs { out.append(what()) } }
        let extraWindows = windows.filter { !baseline.windows.contains($0) }
        note(!extraWindows.isEmpty, "\(extraWindows.count) top-level window(s) of an earlier client")
        note(windows.count - extraWindows.count != baseline.windows.count, "a baseline window is gone")
        let extraProperties = rootProperties.keys.filter { baseline.rootProperties[$0] == nil }
        note(!extraProperties.isEmpty, "\(extraProperties.count) root window propert(ies) added")
        note(baseline.rootProperties.contains { rootProperties[$0.key] != $0.value }, "a root window property changed or deleted")
        note(screenSize != baseline.screenSize, "screen size \(screenSize) (was \(baseline.screenSize))")
        note(monitors != baseline.monitors, "monitors (\(monitors.count), were \(baseline.monitors.count))")
        let movedCrtcs = crtcs.keys.filter { crtcs[$0]?.configuration != baseline.crtcs[$0]?.configuration }
        note(!movedCrtcs.isEmpty, "CRTC configuration (CRTC \(movedCrtcs.sorted().map(String.init).joined(separator: ", ")))")
        note(crtcs.mapValues(\.gamma) != baseline.crtcs.mapValues(\.gamma), "gamma")
        note(primaryOutput != baseline.primaryOutput, "primary output")
        note(modes != baseline.modes, "modes (\(modes.count), were \(baseline.modes.count))")
        let remoded = outputModes.keys.filter { outputModes[$0] != baseline.outputModes[$0] }.sorted()
        note(!remoded.isEmpty, "an output's mode list (\(remoded.map { "\($0): \(outputModes[$0] ?? []) was \(baseline.outputModes[$0] ?? [])" }.joined(separator: "; ")))")
        note(outputProperties != baseline.outputProperties, "output properties")
        note(focus != baseline.focus || focusRevert != baseline.focusRevert, "input focus")
        note(pointerX != baseline.pointerX || pointerY != baseline.pointerY, "pointer position")
        note(pointerMask & Self.buttonBits != baseline.pointerMask & Self.buttonBits, "a pointer button held")
        note(keysDown != baseline.keysDown, "a key held")
        note(lockedModifiers != baseline.lockedModifiers || lockedGroup != baseline.lockedGroup, "a locked modifier or group")
        note(latchedModifiers != baseline.latchedModifiers, "a latched modifier")
        note(firstKeycode != baseline.firstKeycode || keysymsPerKeycode != baseline.keysymsPerKeycode || keysyms != baseline.keysyms,
             "keyboard mapping (\(keysymsPerKeycode) keysyms a key, were \(baseline.keysymsPerKeycode); keycodes \(Self.changedKeycodes(self, baseline).map(String.init).joined(separator: ", ")))")
        note(keysPerModifier != baseline.keysPerModifier || modifierKeycodes != baseline.modifierKeycodes, "modifier mapping")
        note(pointerMapping != baseline.pointerMapping, "pointer button mapping")
        out += settings.differences(from: baseline.settings)
        note(rootCornerPixel != baseline.rootCornerPixel, "the root window's background")
        return out
    }

    /// The keycodes whose keysyms differ (both maps read with the same keysyms per keycode).
    static func changedKeycodes(_ a: ServerFingerprint, _ b: ServerFingerprint) -> [Int] {
        guard a.keysymsPerKeycode == b.keysymsPerKeycode, a.keysymsPerKeycode > 0, a.keysyms.count == b.keysyms.count else { return [] }
        let per = Int(a.keysymsPerKeycode)
        return stride(from: 0, to: a.keysyms.count, by: per).filter { a.keysyms[$0..<$0 + per] != b.keysyms[$0..<$0 + per] }
            .map { Int(a.firstKeycode) + $0 / per }
    }

    /// Whether any of RandR's part differs: monitors, CRTCs, screen size, primary, modes, gamma, output
    /// properties.
    func randrDiffers(from b: ServerFingerprint) -> Bool {
        monitors != b.monitors || crtcs != b.crtcs || screenSize != b.screenSize || primaryOutput != b.primaryOutput
            || modes != b.modes || outputModes != b.outputModes || outputProperties != b.outputProperties
    }

    /// Button1Mask…Button5Mask.
    static let buttonBits: UInt32 = 0x1F00
}
