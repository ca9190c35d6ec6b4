internal import CXlib
import Foundation
import Synchronization
import MultiheadProcess

/// One X protocol error as the process-global handler saw it.
struct XErrorRecord: Sendable {
    var display: UInt
    var serial: UInt
    /// The error's code (`BadWindow`, `BadMatch`, …), the request's major and minor opcodes: what code
    /// classifies by. `text` and `request` are for people.
    var code: UInt8
    var majorOpcode: UInt8
    var minorOpcode: UInt8
    var text: String
    var request: String
    var resource: UInt
}

/// Xlib's error handlers are process-global and errors arrive late, so every error is recorded here
/// with its request serial, and `XConnection.trap` collects those of its own request range.
/// Xlib is driven from the main actor, but the IO error handlers run on whatever thread saw a loss (a
/// test's own thread, while the main actor opens and closes other connections): so all of this state is
/// one value behind one lock (`state`), and no access to it spans an Xlib call that could run a handler.
/// Displays are keyed by address in an `IDSet` or `IDTable`, not a `Set` or `Dictionary`, for the reason
/// `IDTable` gives.
enum XErrorTrap {
    /// Everything the handlers and the connections share.
    struct State {
        /// Errors no trap has claimed yet, oldest first.
        var records: [XErrorRecord] = []
        /// Displays whose connection Xlib reported lost (the IO error exit handler ran).
        var lost = IDSet()
        /// Whether our handlers are the process's.
        var installed = false
        /// The displays our connections opened; errors of any other display go to the handler installed before.
        var ours = IDSet()
        /// Per display, the first serial of the trap in progress: its errors are never dropped by the cap.
        var activeTraps = IDTable<UInt>()
        /// The handlers the process had before ours: called for other displays, given back at `uninstall`.
        var previousErrorHandler: XErrorHandler?
        var previousIOHandler: XIOErrorHandler?
    }

    /// The one copy of the shared state.
    static let state = Locked(State())
    /// Whether any display was ever marked lost: a flag read without the lock and hashing that `lost`
    /// costs. Relaxed: a reader that finds it set takes the lock before it trusts `lost`.
    static let anyLost = Atomic<Bool>(false)
    /// Whether any error waits to be claimed: a frame's usual answer (no) without taking the lock.
    static let anyRecorded = Atomic<Bool>(false)
    /// How many unclaimed errors are kept.
    static let cap = 1000

    /// Whether the display is one our connections opened. Any thread.
    static func isOurs(_ d: OpaquePointer) -> Bool { state.withLock { $0.ours.contains(key(d)) } }

    /// Whether the display was marked lost. Any thread.
    static func isMarkedLost(_ d: OpaquePointer) -> Bool { state.withLock { $0.lost.contains(key(d)) } }

    /// Counts a display ours (opened) or no longer (closed); returns how many are ours then.
    @discardableResult
    static func setOurs(_ d: OpaquePointer, _ isOurs: Bool) -> Int {
        state.withLock {
            if isOurs { $0.ours.insert(key(d)) } else { $0.ours.remove(key(d)) }
            return $0.ours.count
        }
    }

    /// How many displays are ours.
    static var oursCount: Int { state.withLock { $0.ours.count } }

    static func key(_ d: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(d))) }

    /// Installs the process-global handlers once: X errors are recorded, never fatal; an IO error only
    /// marks the display lost (libX11 exits unless both the IO handler and the exit handler return).
    static func install() {
        state.withLock { s in
            guard !s.installed else { return }
            s.installed = true
            s.previousErrorHandler = XSetErrorHandler { display, event in
                guard let display, let e = event?.pointee else { return 0 }
                guard XErrorTrap.isOurs(display) else {
                    // Another library's display: its handler decides (Xlib's default would exit, as it always did).
                    let previous = XErrorTrap.state.withLock { $0.previousErrorHandler }
                    return previous?(display, event) ?? 0
                }
                XErrorTrap.record(XErrorTrap.describe(display, e))
                return 0
            }
            s.previousIOHandler = XSetIOErrorHandler { display in
                guard let display, XErrorTrap.isOurs(display) else {
                    let previous = XErrorTrap.state.withLock { $0.previousIOHandler }
                    return display.flatMap { previous?($0) } ?? 0
                }
                XErrorTrap.markLost(display)
                return 0
            }
        }
    }

    /// Gives back the handlers the process had before `install` (the host's, or Xlib's defaults): called
    /// when the last of our displays closes, so that a host's own Xlib use behaves as before.
    static func uninstall() {
        state.withLock { s in
            guard s.installed else { return }
            s.installed = false
            XSetErrorHandler(s.previousErrorHandler)
            XSetIOErrorHandler(s.previousIOHandler)
            s.previousErrorHandler = nil
            s.previousIOHandler = nil
            s.records.removeAll()
        }
        anyRecorded.store(false, ordering: .relaxed)
    }

    /// Keeps an error for its trap, dropping the oldest unclaimed ones past the cap, but never one a trap
    /// in progress waits for.
    static func record(_ r: XErrorRecord) {
        state.withLock { s in
            s.records.append(r)
            guard s.records.count > cap else { return }
            var excess = s.records.count - cap / 2
            let traps = s.activeTraps
            s.records.removeAll { r in
                guard excess > 0 else { return false }
                if let start = traps[r.display], r.serial >= start { return false }
                excess -= 1
                return true
            }
        }
        anyRecorded.store(true, ordering: .relaxed)
    }

    /// Gives back records taken but not handled.
    static func putBack(_ errors: [XErrorRecord]) {
        guard !errors.isEmpty else { return }
        state.withLock { $0.records.append(contentsOf: errors) }
        anyRecorded.store(true, ordering: .relaxed)
    }

    /// Takes the records for which `isTaken` is true, oldest first.
    static func take(where isTaken: (XErrorRecord) -> Bool) -> [XErrorRecord] {
        guard anyRecorded.load(ordering: .relaxed) else { return [] }
        return state.withLock { s in
            var taken: [XErrorRecord] = []
            s.records.removeAll { r in
                guard isTaken(r) else { return false }
                taken.append(r)
                return true
            }
            if s.records.isEmpty { anyRecorded.store(false, ordering: .relaxed) }
            return taken
        }
    }

    /// Marks the start of a trap on a display; returns whether it is the outermost (which must end it).
    static func beginTrap(_ d: UInt, at start: UInt) -> Bool {
        state.withLock { s in
            guard s.activeTraps[d] == nil else { return false }
            s.activeTraps[d] = start
            return true
        }
    }

    /// Ends the outermost trap on a display.
    static func endTrap(_ d: UInt) { state.withLock { $0.activeTraps[d] = nil } }

    /// Marks a display's connection lost (the IO error handlers).
    static func markLost(_ d: OpaquePointer) {
        state.withLock { $0.lost.insert(key(d)) }
        anyLost.store(true, ordering: .relaxed)
    }

    /// Drops what was recorded for a display address (when it is opened anew or closed).
    static func forget(_ d: OpaquePointer) {
        let k = key(d)
        state.withLock { s in
            s.lost.remove(k)
            s.activeTraps[k] = nil
            s.records.removeAll { $0.display == k }
        }
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
        return XErrorRecord(display: key(d), serial: UInt(e.serial), code: e.error_code, majorOpcode: e.request_code,
                            minorOpcode: e.minor_code, text: text, request: request, resource: UInt(e.resourceid))
    }
}
