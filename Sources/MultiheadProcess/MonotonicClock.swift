#if canImport(Glibc)
import Glibc
#endif

/// Seconds on the monotonic clock: deadlines that a clock set back must not stretch (the watchdog's, a
/// control request's).
package enum MonotonicClock {
    /// Now, in seconds since an arbitrary start. `clock_gettime(CLOCK_MONOTONIC)`.
    package static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
