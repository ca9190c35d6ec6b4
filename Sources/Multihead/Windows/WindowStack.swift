/// An application's windows: every live one (not retained: the application does not keep windows alive),
/// their back-to-front order (by level, then most recently shown in front), and the key window. The one
/// owner of that order; windows report to the application when they are shown, hidden or restacked, and
/// it places them here.
@MainActor
struct WindowStack {
    private var live: [ObjectIdentifier: UnretainedWindow] = [:]
    private var order = StackingOrder()
    private var nextSequence: UInt64 = 0
    private var keyID: ObjectIdentifier?

    /// The key window, if any: found among the live ones, so that a window gone is no longer key.
    var keyWindow: Window? {
        get { keyID.flatMap { live[$0]?.window } }
        set { keyID = newValue.map(ObjectIdentifier.init) }
    }

    /// The live windows, back to front.
    var backToFront: [Window] { order.backToFront.compactMap { live[$0]?.window } }

    /// Every live window, in no order.
    var all: [Window] { live.values.compactMap(\.window) }

    /// A new window, behind the windows shown after it.
    mutating func add(_ w: Window) {
        let id = ObjectIdentifier(w)
        live[id] = UnretainedWindow(window: w)
        nextSequence += 1
        order.set(id, level: w.windowLevel.rawValue, sequence: nextSequence)
    }

    /// A window that went away (its deinit): from now on nothing here points at it.
    mutating func remove(_ id: ObjectIdentifier) {
        live[id] = nil
        order.remove(id)
        if keyID == id { keyID = nil }
    }

    /// Places a window at its level: in front of its level when `toFront` (it was shown), else where it
    /// was in it (its level changed).
    mutating func place(_ w: Window, toFront: Bool) {
        let id = ObjectIdentifier(w)
        var sequence = order.key(of: id)?.sequence ?? 0
        if toFront || sequence == 0 {
            nextSequence += 1
            sequence = nextSequence
        }
        order.set(id, level: w.windowLevel.rawValue, sequence: sequence)
    }
}

/// A window in the registry of live windows, not retained (the application does not keep windows
/// alive). Weak: a window whose last reference goes, on any thread, reads as gone from that moment, before
/// its deinit reaches the main actor and takes it out of the registry (`Application.unregister`).
struct UnretainedWindow {
    weak var window: Window?
}
