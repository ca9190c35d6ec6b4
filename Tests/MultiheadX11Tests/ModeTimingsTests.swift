import Multihead
@testable import MultiheadX11
import Testing

@Suite("Modeline arithmetic and mode choice, pure functions")
struct ModeTimingsTests {
    @Test("rates as xrandr computes them: progressive, interlaced (field rate) and double-scan")
    func ratesAsXrandr() {
        // 1080p60 (CEA): 148.5 MHz / (2200 × 1125) = 60.
        #expect(ModeTimings.refreshRate(dotClock: 148_500_000, hTotal: 2200, vTotal: 1125) == 60)
        // 1080i: 74.25 MHz, 2200 × 1125, interlaced → 60.00 Hz, not 60.05 (an integer 1125 / 2 = 562).
        let i1080 = ModeTimings.refreshRate(dotClock: 74_250_000, hTotal: 2200, vTotal: 1125, interlaced: true)
        #expect(abs(i1080 - 60.00) < 0.005)
        // 480i: 13.5 MHz, 858 × 525, interlaced → 59.94 Hz.
        let i480 = ModeTimings.refreshRate(dotClock: 13_500_000, hTotal: 858, vTotal: 525, interlaced: true)
        #expect(abs(i480 - 59.94) < 0.005)
        // 148.352 MHz at 2200 × 1125 → 59.94 Hz.
        #expect(abs(ModeTimings.refreshRate(dotClock: 148_352_000, hTotal: 2200, vTotal: 1125) - 59.94) < 0.005)
        // Double-scan 320x240: 12.588 MHz, 400 × 262 lines doubled → 60.05 Hz.
        let ds = ModeTimings.refreshRate(dotClock: 12_588_000, hTotal: 400, vTotal: 262, doubleScan: true)
        #expect(abs(ds - 12_588_000 / (400.0 * 524)) < 1e-9)
        #expect(ModeTimings.refreshRate(dotClock: 0, hTotal: 2200, vTotal: 1125) == 0)
        #expect(ModeTimings.refreshRate(dotClock: 1, hTotal: 0, vTotal: 0) == 0)
    }

    @Test("CVT timings equal what `cvt W H` prints")
    func cvt() {
        let m = ModeTimings.cvt(width: 1920, height: 1080, refreshRate: 60)
        #expect(m == .init(dotClock: 173_000_000, width: 1920, hSyncStart: 2048, hSyncEnd: 2248, hTotal: 2576,
                           height: 1080, vSyncStart: 1083, vSyncEnd: 1088, vTotal: 1120))
        let x = ModeTimings.cvt(width: 1024, height: 768, refreshRate: 60)
        #expect(x == .init(dotClock: 63_500_000, width: 1024, hSyncStart: 1072, hSyncEnd: 1176, hTotal: 1328,
                           height: 768, vSyncStart: 771, vSyncEnd: 775, vTotal: 798))
        let s = ModeTimings.cvt(width: 800, height: 600, refreshRate: 60)
        #expect(s == .init(dotClock: 38_250_000, width: 800, hSyncStart: 832, hSyncEnd: 912, hTotal: 1024,
                           height: 600, vSyncStart: 603, vSyncEnd: 607, vTotal: 624))
        #expect(abs(m.refreshRate - 59.96) < 0.01)
    }

    static let hd = Size(width: 1920, height: 1080)
    static let i1080 = ScreenMode(width: 1920, height: 1080, refreshRate: 60.00, isInterlaced: true, backendID: 1)
    static let hz144 = ScreenMode(width: 1920, height: 1080, refreshRate: 143.86, backendID: 2)
    static let hz5994 = ScreenMode(width: 1920, height: 1080, refreshRate: 59.94, backendID: 3)
    static let cvt60 = ScreenMode(width: 1920, height: 1080, refreshRate: 59.96, backendID: 4)

    @Test("CVT reduced-blanking timings equal what `cvt -r W H` prints")
    func cvtReducedBlanking() {
        let uhd = ModeTimings.cvtReducedBlanking(width: 3840, height: 2160, refreshRate: 60)
        #expect(uhd == .init(dotClock: 533_250_000, width: 3840, hSyncStart: 3888, hSyncEnd: 3920, hTotal: 4000,
                             height: 2160, vSyncStart: 2163, vSyncEnd: 2168, vTotal: 2222))
        let qhd = ModeTimings.cvtReducedBlanking(width: 2560, height: 1440, refreshRate: 60)
        #expect(qhd == .init(dotClock: 241_500_000, width: 2560, hSyncStart: 2608, hSyncEnd: 2640, hTotal: 2720,
                             height: 1440, vSyncStart: 1443, vSyncEnd: 1448, vTotal: 1481))
    }

    @Test("with a rate, the nearest within 0.5 Hz; else the rates there are")
    func chooseByRate() {
        let modes = [Self.i1080, Self.hz144, Self.hz5994]
        #expect(ModeChoice.choose(modes, size: Self.hd, refreshRate: 144) == .success(Self.hz144))
        #expect(ModeChoice.choose(modes, size: Self.hd, refreshRate: 59.94) == .success(Self.hz5994))
        #expect(ModeChoice.choose(modes, size: Self.hd, refreshRate: 75) == .failure(.noSuchRate(available: [59.94, 60, 143.86])))
        #expect(ModeChoice.choose(modes, size: Size(width: 5, height: 5), refreshRate: nil) == .failure(.noSuchSize))
    }

    @Test("without a rate: the preferred mode of that size, else the fastest progressive one; interlaced last")
    func chooseWithoutRate() {
        #expect(ModeChoice.choose([Self.i1080, Self.cvt60, Self.hz5994], size: Self.hd, refreshRate: nil) == .success(Self.cvt60))
        #expect(ModeChoice.choose([Self.hz5994, Self.hz144], preferredCount: 1, size: Self.hd, refreshRate: nil) == .success(Self.hz5994))
        #expect(ModeChoice.choose([Self.i1080], size: Self.hd, refreshRate: nil) == .success(Self.i1080))
        // Asked for by rate, an interlaced mode is chosen.
        #expect(ModeChoice.choose([Self.i1080, Self.hz5994], size: Self.hd, refreshRate: 60) == .success(Self.i1080))
    }

    @Test("rotation bits: degrees and reflection; a rotated mode reports its size turned")
    func rotation() {
        #expect(RandR.orientation(1) == (0, .none))
        #expect(RandR.orientation(2) == (90, .none))
        #expect(RandR.orientation(4 | 16) == (180, .x))
        #expect(RandR.orientation(8 | 16 | 32) == (270, .xy))
        let m = ScreenMode(width: 1920, height: 1080, refreshRate: 60, backendID: 9)
        #expect(m.rotated(byDegrees: 90).size == Size(width: 1080, height: 1920))
        #expect(m.rotated(byDegrees: 270).size == Size(width: 1080, height: 1920))
        #expect(m.rotated(byDegrees: 180) == m)
    }

    @Test("a rate whose pixel clock passes RandR's 32 bits cannot be made; the fastest that can is offered")
    func clockLimit() {
        #expect(ModeTimings.canMake(width: 1920, height: 1080, refreshRate: 60))
        // 999 Hz at 1920×1080 is a ≈ 6.57 GHz clock, which would wrap to ≈ 2.275 GHz (345.89 Hz).
        #expect(!ModeTimings.canMake(width: 1920, height: 1080, refreshRate: 999))
        let fastest = ModeTimings.fastestMakeableRate(width: 1920, height: 1080)
        #expect(fastest > 700 && fastest < 999)
        #expect(ModeTimings.canMake(width: 1920, height: 1080, refreshRate: fastest))
        #expect(!ModeTimings.canMake(width: 1920, height: 1080, refreshRate: fastest + 0.02))
        #expect(ModeTimings.cvt(width: 1920, height: 1080, refreshRate: fastest).dotClock <= ModeTimings.maximumDotClock)
        #expect(!ModeTimings.canMake(width: 640, height: 480, refreshRate: .nan))
    }

    @Test("a TrueColor pixel read back through its masks: 5-6-5 channels scaled to 8 bits")
    func pixelMasks() {
        let m565: (UInt, UInt, UInt) = (0xF800, 0x07E0, 0x001F)
        #expect(Screenshot.rgb(0xF800, masks: m565) == 0xFF0000)
        #expect(Screenshot.rgb(0x07E0, masks: m565) == 0x00FF00)
        #expect(Screenshot.rgb(0xFFFF, masks: m565) == 0xFFFFFF)
        #expect(Screenshot.rgb(0x0400, masks: m565) == 0x008200)
        #expect(Screenshot.rgb(0x12_3456, masks: (0xFF0000, 0xFF00, 0xFF)) == 0x12_3456)
    }
}
