internal import CXlib
import Foundation
@testable import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Testing

/// A monitor's EDID, published as its output's `EDID` property, reaches the screen: manufacturer, model,
/// serial number and physical size, on Xorg+dummy's real outputs.
@MainActor
@Suite("EDID of a real output on the screen", .timeLimit(.minutes(3)))
struct EDIDOnX11Tests {
    /// Sets an output's `EDID` property as a driver does (`XRRChangeOutputProperty`, INTEGER, format 8).
    static func setEDID(_ bytes: [UInt8], output: String, on server: VirtualServer) throws {
        let c = try server.controlConnection()
        let id = try #require(try c.readState().output(named: output)?.id)
        let d = c.connection.display
        let atom = XInternAtom(d, "EDID", 0)
        bytes.withUnsafeBufferPointer {
            XRRChangeOutputProperty(d, RROutput(id), atom, XA_INTEGER, 8, PropModeReplace, $0.baseAddress, Int32(bytes.count))
        }
        XSync(d, 0)
    }

    @Test("an output with an EDID, plugged: Screen.manufacturer, model, serialNumber and the EDID's size")
    func edidOnTheScreen() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [.init("DUMMY0", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let edid = try #require(EDID.block(manufacturer: "DEL", productCode: 0xA0C4, model: "DELL U2720Q", serialNumber: "ABC123",
                                           physicalSize: Size(width: 597, height: 336), timing: .hd1080p60))
        try Self.setEDID(edid, output: "DUMMY1", on: server)
        let app = try server.makeApplication()
        #expect(app.mainScreen.manufacturer == nil && app.mainScreen.model == nil && app.mainScreen.serialNumber == nil)
        try server.plug("DUMMY1", "1920x1080+1024+0")
        try app.synchronize()
        let tv = try #require(app.screen(named: "DUMMY1"))
        #expect(tv.manufacturer == "DEL" && tv.model == "DELL U2720Q" && tv.serialNumber == "ABC123")
        #expect(tv.physicalSize == Size(width: 597, height: 336))
    }

    @Test("an EDID published or replaced on a lit output (a property change alone) shows at the next read")
    func edidChangedInPlace() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [.init("DUMMY0", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let app = try server.makeApplication()
        #expect(app.mainScreen.model == nil)
        let edid = try #require(EDID.block(manufacturer: "GSM", model: "LG HDR 4K", serialNumber: nil,
                                           physicalSize: Size(width: 600, height: 340), timing: .hd1080p60))
        try Self.setEDID(edid, output: "DUMMY0", on: server)
        try app.synchronize()
        #expect(app.mainScreen.manufacturer == "GSM" && app.mainScreen.model == "LG HDR 4K" && app.mainScreen.serialNumber == nil)
    }

    @Test("plug with a monitor identity: the output publishes its EDID, then lights; unplug takes the EDID away")
    func plugAsACable() async throws {
        let server = try await VirtualServer.start(.xorgDummy, monitors: [.init("DUMMY0", "1024x768+0+0", primary: true)])
        defer { server.stop() }
        let app = try server.makeApplication()
        let identity = VirtualServer.MonitorIdentity(manufacturer: "SAM", model: "Odyssey G9", serialNumber: "H4ZR900123",
                                                     physicalSize: Size(width: 1193, height: 336))
        try server.plug("DUMMY2", "1920x1080+1024+0", monitor: identity)
        try app.synchronize()
        let tv = try #require(app.screen(named: "DUMMY2"))
        #expect(tv.manufacturer == "SAM" && tv.model == "Odyssey G9" && tv.serialNumber == "H4ZR900123")
        #expect(tv.physicalSize == Size(width: 1193, height: 336) && tv.currentMode?.size == Size(width: 1920, height: 1080))
        try server.unplug("DUMMY2")
        try server.plug("DUMMY2", "1920x1080+1024+0")
        try app.synchronize()
        let again = try #require(app.screen(named: "DUMMY2"))
        #expect(again.manufacturer == nil && again.model == nil)
    }

    @Test("a monitor identity on a virtual monitor, or one that cannot be encoded: invalidMonitor with the reason")
    func identityRefused() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        #expect(throws: ServerControlError.self) { try server.plug("EXT", "800x600+1920+0", monitor: .init(model: "TV")) }
        let xorg = try await VirtualServer.start(.xorgDummy)
        defer { xorg.stop() }
        #expect(throws: ServerControlError.self) { try xorg.plug("DUMMY1", "800x600+1024+0", monitor: .init(manufacturer: "dell")) }
        #expect(try xorg.controlConnection().monitorFrame(named: "DUMMY1") == nil)
    }
}
