import Multihead
import Testing

/// How a screen's scale is chosen: named factors, then the desktop's scale, then the monitor's density.
@Suite("Each screen's scale")
struct ScreenScalePolicyTests {
    func screen(_ name: String, _ w: Double, _ h: Double, mm: Size = .zero) -> ScreenDescription {
        ScreenDescription(name: name, frame: Rect(x: 0, y: 0, width: w, height: h), physicalSize: mm)
    }

    /// Millimetres for `ppi` pixels per inch at this many pixels.
    func mm(_ pixels: Double, ppi: Double) -> Double { pixels / ppi * 25.4 }

    @Test("the three sources in order: a named factor, else Xft.dpi, else the density")
    func order() {
        let panel = screen("eDP-1", 3840, 2160, mm: Size(width: 344, height: 194))
        let tv = screen("HDMI-1", 1920, 1080, mm: Size(width: 1000, height: 560))
        #expect(ScreenScalePolicy().scale(for: panel) == 2 && ScreenScalePolicy().scale(for: tv) == 1)
        let desktop = ScreenScalePolicy(desktopScale: 1.5)
        #expect(desktop.scale(for: panel) == 1.5 && desktop.scale(for: tv) == 1.5)
        let named = ScreenScalePolicy(factors: ["HDMI-1": 1.25], desktopScale: 1.5)
        #expect(named.scale(for: tv) == 1.25 && named.scale(for: panel) == 1.5)
        // A factor no screen can have (given in code, past the parser) is passed over.
        let odd = ScreenScalePolicy(factors: ["HDMI-1": .nan, "eDP-1": 0], desktopScale: .infinity)
        #expect(odd.scale(for: tv) == 1 && odd.scale(for: panel) == 2)
    }

    @Test("a scale below 0.5 (Xft.dpi 48) from any source is passed over, as NaN, 0 and over 8 are; 0.5 and 8 are taken")
    func smallestScale() throws {
        let panel = screen("eDP-1", 3840, 2160, mm: Size(width: 344, height: 194))
        // Xft.dpi 1e-300 and 47: the density decides.
        #expect(ScreenScalePolicy(desktopScale: 1e-300 / 96).scale(for: panel) == 2)
        #expect(ScreenScalePolicy(desktopScale: 47.0 / 96).scale(for: panel) == 2)
        #expect(ScreenScalePolicy(desktopScale: 48.0 / 96).scale(for: panel) == 0.5)
        // A factor by name below it: Xft.dpi decides.
        let named = ScreenScalePolicy(factors: ["eDP-1": 0.49], desktopScale: 1.5)
        #expect(named.scale(for: panel) == 1.5)
        #expect(ScreenScalePolicy(factors: ["eDP-1": .leastNonzeroMagnitude]).scale(for: panel) == 2)
        #expect(ScreenScalePolicy(factors: ["eDP-1": 0.5]).scale(for: panel) == 0.5)
        #expect(ScreenScalePolicy(factors: ["eDP-1": 8]).scale(for: panel) == 8)
        // MULTIHEAD_SCREEN_SCALE_FACTORS and `run --scale`: refused with the range.
        #expect(try ScreenScalePolicy.parseFactors("DP-1=0.5") == ["DP-1": 0.5])
        #expect(throws: ScaleFactorError.badFactor(name: "DP-1", text: "0.25")) { try ScreenScalePolicy.parseFactors("DP-1=0.25") }
        #expect(throws: ScaleFactorError.badFactor(name: "DP-1", text: "1e-300")) { try ScreenScalePolicy.parseFactors("DP-1=1e-300") }
        #expect(ScaleFactorError.badFactor(name: "DP-1", text: "0.25").description == "the factor for DP-1, \"0.25\", is not a number from 0.5 to 8")
        // Whatever backend describes a screen (the in-memory one included): outside 0.5…8 it draws at 1.
        let frame = Rect(x: 0, y: 0, width: 800, height: 600)
        #expect([1e-300, 0.49, 0.5, 8, 9].map { ScreenDescription(name: "S", frame: frame, scale: $0).scale } == [1, 1, 0.5, 8, 1])
    }

    @Test("the density rule's edges: 1199 and 1200 pixels tall, 192 and 193 pixels per inch, no size")
    func edges() {
        func scale(_ w: Double, _ h: Double, ppi: Double) -> Double {
            ScreenScalePolicy.densityScale(pixels: Size(width: w, height: h), millimetres: Size(width: mm(w, ppi: ppi), height: mm(h, ppi: ppi)))
        }
        #expect(scale(1920, 1200, ppi: 193) == 2)
        #expect(scale(1920, 1199, ppi: 193) == 1)
        #expect(scale(1920, 1200, ppi: 192) == 1)
        #expect(scale(2880, 1800, ppi: 220) == 2)
        #expect(ScreenScalePolicy.densityScale(pixels: Size(width: 3840, height: 2160), millimetres: .zero) == 1)
        // Dense across but not down (tall pixels): both must be dense.
        #expect(ScreenScalePolicy.densityScale(pixels: Size(width: 3840, height: 2160), millimetres: Size(width: 344, height: 400)) == 1)
    }

    @Test("NAME=F;NAME=F: read with spaces and a trailing ;, refused with the reason")
    func parse() throws {
        #expect(try ScreenScalePolicy.parseFactors("DP-1=2;HDMI-1=1") == ["DP-1": 2, "HDMI-1": 1])
        #expect(try ScreenScalePolicy.parseFactors(" eDP-1 = 1.5 ; ") == ["eDP-1": 1.5])
        #expect(try ScreenScalePolicy.parseFactors("") == [:])
        #expect(throws: ScaleFactorError.malformed("DP-1")) { try ScreenScalePolicy.parseFactors("DP-1") }
        #expect(throws: ScaleFactorError.badFactor(name: "DP-1", text: "0")) { try ScreenScalePolicy.parseFactors("DP-1=0") }
        #expect(throws: ScaleFactorError.badFactor(name: "DP-1", text: "9")) { try ScreenScalePolicy.parseFactors("DP-1=9") }
        #expect(throws: ScaleFactorError.badFactor(name: "DP-1", text: "nan")) { try ScreenScalePolicy.parseFactors("DP-1=nan") }
        #expect(throws: ScaleFactorError.repeated("DP-1")) { try ScreenScalePolicy.parseFactors("DP-1=2;DP-1=1") }
        #expect(throws: ScaleFactorError.malformed("=2")) { try ScreenScalePolicy.parseFactors("=2") }
    }
}
