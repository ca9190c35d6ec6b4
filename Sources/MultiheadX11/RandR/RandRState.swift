import Multihead

/// What the server's RandR says at one moment: the monitors (with their names), the modes, outputs and
/// CRTCs, the primary output and the largest screen. The one conversion of RandR's records: the monitor
/// reader describes screens from it, and the output configurator and `ServerControl` change outputs by
/// the ids it holds. Read by `RandRBatch.state` over XCB, pipelined (two round trips).
@MainActor
package struct RandRState {
    /// The active monitors, in the server's order.
    package var monitors: [RandR.MonitorInfo]
    /// The monitors' names by name atom.
    package var names: IDTable<String>
    /// The modes, outputs and CRTCs.
    package var resources: RandRBatch.Resources
    /// RandR's primary output (0: none).
    package var primaryOutput: UInt
    /// The largest screen the server can make.
    package var largestScreen: Size

    /// A monitor's name.
    package func name(of monitor: RandR.MonitorInfo) -> String? { names[monitor.nameAtom] }

    /// The monitor with this name.
    package func monitor(named name: String) -> RandR.MonitorInfo? {
        monitors.first { names[$0.nameAtom] == name }
    }

    /// Every output, in id order.
    package var outputs: [RandR.OutputInfo] { resources.outputs.entries.map(\.value) }

    /// The output with this name.
    package func output(named name: String) -> RandR.OutputInfo? { outputs.first { $0.name == name } }

    /// An output by id.
    package func output(_ id: UInt) -> RandR.OutputInfo? { resources.outputs[id] }

    /// A CRTC by id.
    package func crtc(_ id: UInt) -> RandR.CrtcInfo? { resources.crtcs[id] }

    /// Every mode the server knows, as `ScreenMode`s by id.
    package func mode(_ id: UInt) -> ScreenMode? { resources.modes[id]?.mode }
}
