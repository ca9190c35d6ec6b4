internal import CXlib
import Foundation
import Synchronization

/// One X protocol error as the process-global handler saw it.
struct XErrorRecord: Sendable {
    var display: UInt
    var serial: UInt
    var text: String
    var request: String
    var resource: UInt
}

/// Xlib's error handlers are process-global and errors arrive late, so every error is recorded here
/// with its request serial, and `XConnection.trap` collects those of its own request range.
/// Xlib is driven from the main actor, so these globals are touched there, except `ours` and `lost`: the
/// IO error handlers read and write them on whatever thread saw a loss (a test's own thread, while the
/// main actor opens and closes other connections), so those two are private, and every access to them
/// holds `tablesLock`.
/// Displays are keyed by address in an `IDSet` or `IDTable`, not a `Set` or `Dictionary`, for the reason
/// `IDTable` gives. Their exclusivity is unchecked: each frame reads them several times, and no access
/// spans an Xlib call that could run a handler.
enum XErrorTrap {
    @exclusivity(unchecked) nonisolated(unsafe) static var records: [XErrorRecord] = []
    /// Displays whose connection Xlib reported lost (the IO error exit handler ran).
    @exclusivity(unchecked) nonisolated(unsafe) private static var lost = IDSet()
    /// Whether any display was ever marked lost: a flag read without the lock and hashing that `lost`
    /// costs. Atomic, as the handlers set it on whatever thread saw the loss; relaxed, as a reader that
    /// finds it set takes the lock before it trusts `lost`.
    static let anyLost = Atomic<Bool>(false)
    nonisolated(unsafe) static var installed = false
    /// The displays our connections opened; errors of any other display go to the handler installed before.
    @exclusivity(unchecked) nonisolated(unsafe) private static var ours = IDSet()
    /// Per display, the first serial of the trap in progress: its errors are never dropped by the cap.
    @exclusivity(unchecked) nonisolated(unsafe) static var activeTraps = IDTable<UInt>()
    nonisolated(unsafe) static var previousErrorHandler: XErrorHandler?
    nonisolated(unsafe) static var previousIOHandler: XIOErrorHandler?
    /// How many unclaimed errors are kept.
    static let cap = 1000
    /// Held for every access to `ours` and `lost`. A pthread mutex (`NSLock`), not `Mutex`: on Linux a
    /// contended `Mutex` hands itself over in the kernel (a priority-inheriting futex), where
    /// ThreadSanitizer sees no ordering, and it reported the two handlers' accesses under it as a race.
    static let tablesLock = NSLock()

    /// Whether the display is one our connections opened. Any thread.
    static func isOurs(_ d: OpaquePointer) -> Bool { tablesLock.withLock { ours.contains(key(d)) } }

    /// Whether the display was marked lost. Any thread.
    static func isMarkedLost(_ d: OpaquePointer) -> Bool { tablesLock.withLock { lost.contains(key(d)) } }

    /// Counts a display ours (opened) or no longer (closed); returns how many are ours then.
    @discardableResult
    static func setOurs(_ d: OpaquePointer, _ isOurs: Bool) -> Int {
        tablesLock.withLock {
            if isOurs { ours.insert(key(d)) } else { ours.remove(key(d)) }
            return ours.entries.count
        }
    }

    /// How many displays are ours.
    static var oursCount: Int { tablesLock.withLock { ours.entries.count } }

    static func key(_ d: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(d))) }

    /// Installs the process-global handlers once: X errors are recorded, never fatal; an IO error only
    /// marks the display lost (libX11 exits unless both the IO handler and the exit handler return).
    static func install() {
        guard !installed else { return }
        installed = true
        previousErrorHandler = XSetErrorHandler { display, event in
            guard let display, let e = event?.pointee else { return 0 }
            guard XErrorTrap.isOurs(display) else {
                // Another library's display: its handler decides (Xlib's default would exit, as it always did).
                return XErrorTrap.previousErrorHandler?(display, event) ?? 0
            }
            XErrorTrap.records.append(XErrorTrap.describe(display, e))
            XErrorTrap.capRecords()
            return 0
        }
        previousIOHandler = XSetIOErrorHandler { display in
            guard let display, XErrorTrap.isOurs(display) else {
                return display.flatMap { XErrorTrap.previousIOHandler?($0) } ?? 0
            }
            XErrorTrap.markLost(display)
            return 0
        }
    }

    /// Gives back the handlers the process had before `install` (the host's, or Xlib's defaults): called
    /// when the last of our displays closes, so that a host's own Xlib use behaves as before.
    static func uninstall() {
        guard installed else { return }
        installed = false
        XSetErrorHandler(previousErrorHandler)
        XSetIOErrorHandler(previousIOHandler)
        previousErrorHandler = nil
        previousIOHandler = nil
        records.removeAll()
    }

    /// Drops the oldest unclaimed errors past the cap, but never one a trap in progress waits for.
    static func capRecords() {
        guard records.count > cap else { return }
        var excess = records.count - cap / 2
        records.removeAll { r in
            guard excess > 0 else { return false }
            if let start = activeTraps[r.display], r.serial >= start { return false }
            excess -= 1
            return true
        }
    }

    /// Marks a display's connection lost (the IO error handlers).
    static func markLost(_ d: OpaquePointer) {
        tablesLock.withLock { lost.insert(key(d)) }
        anyLost.store(true, ordering: .relaxed)
    }

    /// Drops what was recorded for a display address (when it is opened anew or closed).
    static func forget(_ d: OpaquePointer) {
        let k = key(d)
        tablesLock.withLock { lost.remove(k) }
        activeTraps[k] = nil
        records.removeAll { $0.display == k }
    }

    /// The per-display exit handler: a C function that marks the display lost, so that Xlib returns.
    /// libX11's `_XIOError` takes the display's user-level lock (what `XLockDisplay` takes) for this
    /// thread before it calls the handlers, and never releases it: it expects the process to exit. When
    /// the handler returns, every later Xlib call on the display from another thread waits for that lock
    /// for ever. Under `dispatchMain()` any of libdispatch's threads serves the main queue, so a
    /// `tearDown`'s `XFreeGC` hung that way in a test run. The lock is released here, on the thread that
    /// holds it.
    static let exitHandler: XIOErrorExitHandler = { display, _ in
        guard let display else { return }
        XErrorTrap.markLost(display)
        XUnlockDisplay(display)
    }

    static func describe(_ d: OpaquePointer, _ e: XErrorEvent) -> XErrorRecord {
        var buf = [CChar](repeating: 0, count: 256)
        XGetErrorText(d, Int32(e.error_code), &buf, Int32(buf.count))
        let text = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var req = [CChar](repeating: 0, count: 128)
        let major = String(e.request_code)
        XGetErrorDatabaseText(d, "XRequest", major, "", &req, Int32(req.count))
        var request = String(decoding: req.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if request.isEmpty { request = "request \(e.request_code).\(e.minor_code)" }
        return XErrorRecord(display: key(d), serial: UInt(e.serial), text: text, request: request, resource: UInt(e.resourceid))
    }
}
