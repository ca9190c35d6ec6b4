import Multihead

/// Modeline arithmetic: the refresh rate of X mode timings, and VESA CVT timings for a mode the kit makes.
/// Pure functions, so that tests can call them directly.
package enum ModeTimings {
    /// The refresh rate as xrandr computes it: dotClock / (hTotal × vTotal) in floating point, with
    /// vTotal doubled for double-scan and halved for interlace (the field rate); 0 when unknown.
    package static func refreshRate(dotClock: UInt64, hTotal: UInt32, vTotal: UInt32,
                                    doubleScan: Bool = false, interlaced: Bool = false) -> Double {
        var v = Double(vTotal)
        if doubleScan { v *= 2 }
        if interlaced { v /= 2 }
        guard dotClock > 0, hTotal > 0, v > 0 else { return 0 }
        return Double(dotClock) / (Double(hTotal) * v)
    }

    /// One modeline: the pixel clock in Hz and the horizontal and vertical timings.
    package struct Modeline: Equatable, Sendable {
        package var dotClock: UInt64
        package var width: UInt32, hSyncStart: UInt32, hSyncEnd: UInt32, hTotal: UInt32
        package var height: UInt32, vSyncStart: UInt32, vSyncEnd: UInt32, vTotal: UInt32

        /// The refresh rate these timings give.
        package var refreshRate: Double { ModeTimings.refreshRate(dotClock: dotClock, hTotal: hTotal, vTotal: vTotal) }
    }

    /// CVT timings (normal blanking, progressive) for a size and a rate, as `cvt W H RATE` prints them:
    /// 1920×1080 at 60 Hz is 173.00 MHz, 1920 2048 2248 2576, 1080 1083 1088 1120.
    package static func cvt(width: Int, height: Int, refreshRate: Double) -> Modeline {
        let granularity = 8, minVPorch = 3, clockStepKHz = 250
        let minVSyncBackPorchMicroseconds = 550.0
        let cPrime = 30.0, mPrime = 300.0   // (C − J) × K / 256 + J and K / 256 × M of the standard
        let rate = refreshRate > 0 && refreshRate.isFinite ? refreshRate : 60
        let h = (width + granularity - 1) / granularity * granularity
        let v = height
        let vSync = verticalSyncWidth(h, v)
        let hPeriod = (1_000_000 / rate - minVSyncBackPorchMicroseconds) / Double(v + minVPorch)
        var vSyncAndBackPorch = Int(minVSyncBackPorchMicroseconds / hPeriod) + 1
        if vSyncAndBackPorch < vSync + minVPorch { vSyncAndBackPorch = vSync + minVPorch }
        let vTotal = v + vSyncAndBackPorch + minVPorch
        let blankPercentage = max(20, cPrime - mPrime * hPeriod / 1000)
        var hBlank = Int(Double(h) * blankPercentage / (100 - blankPercentage))
        hBlank -= hBlank % (2 * granularity)
        let hTotal = h + hBlank
        var clockKHz = Int(Double(hTotal) * 1000 / hPeriod)
        clockKHz -= clockKHz % clockStepKHz
        let hSyncEnd = h + hBlank / 2
        var hSyncWidth = hTotal * 8 / 100
        hSyncWidth -= hSyncWidth % granularity
        let vSyncStart = v + minVPorch
        return Modeline(
            dotClock: UInt64(clockKHz) * 1000,
            width: UInt32(width), hSyncStart: UInt32(hSyncEnd - hSyncWidth), hSyncEnd: UInt32(hSyncEnd), hTotal: UInt32(hTotal),
            height: UInt32(height), vSyncStart: UInt32(vSyncStart), vSyncEnd: UInt32(vSyncStart + vSync), vTotal: UInt32(vTotal))
    }

    /// CVT's vertical sync width, which says the aspect ratio: 4 lines for 4:3, 5 for 16:9, 6 for 16:10, 7
    /// for 5:4 and 15:9, 10 for any other.
    private static func verticalSyncWidth(_ h: Int, _ v: Int) -> Int {
        func near(_ r: Double) -> Bool { abs(Double(h) / Double(v) - r) < 0.01 }
        if near(4.0 / 3) { return 4 }
        if near(16.0 / 9) { return 5 }
        if near(16.0 / 10) { return 6 }
        if near(5.0 / 4) || near(15.0 / 9) { return 7 }
        return 10
    }

    /// CVT timings with reduced blanking (version 1), as `cvt -r W H RATE` prints them: what a monitor
    /// offers where normal blanking would need too fast a clock (3840×2160 at 60 Hz: 533.25 MHz, 3840 3888
    /// 3920 4000, 2160 2163 2168 2222).
    package static func cvtReducedBlanking(width: Int, height: Int, refreshRate: Double) -> Modeline {
        let granularity = 8, frontPorch = 48, syncWidth = 32, blank = 160
        let minVBlankMicroseconds = 460.0, vFrontPorch = 3, minVBackPorch = 6, clockStepKHz = 250
        let rate = refreshRate > 0 && refreshRate.isFinite ? refreshRate : 60
        let h = (width + granularity - 1) / granularity * granularity
        let v = height
        let vSync = verticalSyncWidth(h, v)
        let hPeriod = (1_000_000 / rate - minVBlankMicroseconds) / Double(v)
        let vBlank = max(Int(minVBlankMicroseconds / hPeriod) + 1, vFrontPorch + vSync + minVBackPorch)
        let hTotal = h + blank, vTotal = v + vBlank
        var clockKHz = Int(rate * Double(vTotal) * Double(hTotal) / 1000)
        clockKHz -= clockKHz % clockStepKHz
        return Modeline(
            dotClock: UInt64(clockKHz) * 1000,
            width: UInt32(width), hSyncStart: UInt32(h + frontPorch), hSyncEnd: UInt32(h + frontPorch + syncWidth), hTotal: UInt32(hTotal),
            height: UInt32(height), vSyncStart: UInt32(v + vFrontPorch), vSyncEnd: UInt32(v + vFrontPorch + vSync), vTotal: UInt32(vTotal))
    }
}

extension ModeTimings {
    /// The largest pixel clock RandR can carry: the protocol's mode record holds it in 32 bits (Hz).
    package static let maximumDotClock = UInt64(UInt32.max)

    /// Whether CVT timings exist for that size and rate and RandR can carry them: the line period stays
    /// positive (the rate is below 1 / 550 µs of vertical blanking) and the pixel clock fits in 32 bits.
    package static func canMake(width: Int, height: Int, refreshRate: Double) -> Bool {
        guard refreshRate > 0, refreshRate.isFinite, 1_000_000 / refreshRate > 550 else { return false }
        let t = cvt(width: width, height: height, refreshRate: refreshRate)
        return t.dotClock > 0 && t.dotClock <= maximumDotClock && t.hTotal > 0
    }

    /// The highest rate, to 0.01 Hz, for which `canMake` holds (0 when none does): what a refusal offers.
    package static func fastestMakeableRate(width: Int, height: Int) -> Double {
        var low = 0.0, high = 1_000_000 / 550.0
        guard canMake(width: width, height: height, refreshRate: 1) else { return 0 }
        low = 1
        while high - low > 0.005 {
            let mid = (low + high) / 2
            if canMake(width: width, height: height, refreshRate: mid) { low = mid } else { high = mid }
        }
        return (low * 100).rounded(.down) / 100
    }
}

/// Which of a server's modes a request for a size (and maybe a rate) means.
package enum ModeChoice {
    /// Why no mode fits.
    package enum Failure: Error, Equatable {
        /// No mode of that size exists.
        case noSuchSize
        /// Modes of that size exist, but none within 0.5 Hz of the rate asked; these are their rates.
        case noSuchRate(available: [Double])
    }

    /// Picks among `modes` (the output's preferred ones first, `preferredCount` of them): with a rate, the
    /// mode of that size whose rate is nearest, within 0.5 Hz; without one, the preferred mode if it has
    /// that size, else the progressive mode of that size with the highest rate; an interlaced mode only
    /// when asked for by rate or when it is the only one.
    package static func choose(_ modes: [ScreenMode], preferredCount: Int = 0, size: Size,
                               refreshRate: Double?) -> Result<ScreenMode, Failure> {
        let sized = modes.filter { $0.size == size }
        guard !sized.isEmpty else { return .failure(.noSuchSize) }
        if let rate = refreshRate {
            let best = sized.min { abs($0.refreshRate - rate) < abs($1.refreshRate - rate) }
            guard let best, abs(best.refreshRate - rate) <= 0.5 else {
                return .failure(.noSuchRate(available: Array(Set(sized.map(\.refreshRate))).sorted()))
            }
            return .success(best)
        }
        if let preferred = modes.prefix(preferredCount).first(where: { $0.size == size }) { return .success(preferred) }
        let progressive = sized.filter { !$0.isInterlaced }
        let pool = progressive.isEmpty ? sized : progressive
        // max(by:) keeps the last of equals; prefer the first listed.
        var best = pool[0]
        for m in pool.dropFirst() where m.refreshRate > best.refreshRate { best = m }
        return .success(best)
    }
}
