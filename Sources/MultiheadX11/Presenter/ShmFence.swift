internal import CXlib
#if canImport(Glibc)
import Glibc
#endif

/// The MIT-SHM fence: which shared buffers the server has not read yet, from its completion events, and
/// the wait before cairo draws into one again (cairo must never draw into pixels the server still reads).
/// Without shared memory there is nothing to fence: a wait for reads is a round trip.
@MainActor
final class ShmFence {
    private let connection: XConnection
    /// The event type of MIT-SHM's completion events, when windows take shared pixels.
    private let completionType: Int32?
    /// Shared segments → the buffers they are, for completion events.
    private var bySegment: [UInt: PixelBuffer] = [:]
    /// The buffer the last completion event named (the next one most often names it too). Cleared with it.
    private var lastCompleted: PixelBuffer?
    /// The buffers put since the last wait for every read, each once: that wait visits these, not every
    /// window's buffer (a frame of one window among a hundred waits on one).
    private var unread: [PixelBuffer] = []
    /// How many draws had to wait for the server's read first.
    private(set) var waits = 0

    /// A fence on `connection`'s completion events; `shared` false (no MIT-SHM) fences nothing.
    /// `XShmGetEventBase`.
    init(connection: XConnection, shared: Bool) {
        self.connection = connection
        completionType = shared ? XShmGetEventBase(connection.display) + Int32(ShmCompletion) : nil
    }

    /// A buffer made: its completions are counted from now on.
    func add(_ buffer: PixelBuffer) {
        if let segment = buffer.segment { bySegment[segment] = buffer }
    }

    /// A buffer dropped: its late completions name a segment no longer ours.
    func remove(_ buffer: PixelBuffer) {
        if let segment = buffer.segment { bySegment[segment] = nil }
        if lastCompleted === buffer { lastCompleted = nil }
        guard buffer.listedUnread else { return }
        buffer.listedUnread = false
        // A loop: a main-actor closure given to the standard library checks the executor at each call.
        for i in unread.indices where unread[i] === buffer {
            unread.remove(at: i)
            break
        }
    }

    /// Sends `buffer`'s pixels of `area` (all when nil) to `drawable` (`PixelBuffer.put`), and lists the
    /// buffer for the next wait for every read when the server has it to read.
    @discardableResult
    func put(_ buffer: PixelBuffer, to drawable: UInt, gc: GC, area: PixelRect? = nil) -> Int {
        let pixels = buffer.put(to: drawable, gc: gc, area: area)
        if buffer.unreadPuts > 0, !buffer.listedUnread {
            buffer.listedUnread = true
            unread.append(buffer)
        }
        return pixels
    }

    /// Waits until the server has read every shared put sent so far: only the buffers put since the last
    /// such wait (a buffer read meanwhile costs a look).
    func waitUntilAllRead() {
        while let b = unread.popLast() {
            b.listedUnread = false
            waitUntilRead(b)
        }
    }

    /// How many buffers the next wait for every read visits (tests check that it is those put, not all).
    var listedUnreadCount: Int { unread.count }

    /// Takes a completion event (MIT-SHM says the server has read a shared put); false for any other event.
    func handleCompletion(_ e: inout XEvent) -> Bool {
        guard let completionType, e.type == completionType else { return false }
        let segment = Self.segment(ofCompletion: &e)
        let buffer = lastCompleted?.segment == segment ? lastCompleted : bySegment[segment]
        lastCompleted = buffer
        if let b = buffer, b.unreadPuts > 0 { b.unreadPuts -= 1 }
        return true
    }

    /// Waits until the server has read every put of `buffer`, taking completion events off the queue (the
    /// others stay for the backend). `XCheckIfEvent`, and `poll` on the connection when none is there yet.
    func waitUntilRead(_ buffer: PixelBuffer) {
        guard buffer.unreadPuts > 0, let completionType else { return }
        waits += 1
        let d = connection.display
        // Every frame ends with a flush: a wait right after one has nothing to send.
        connection.flushIfNeeded()
        connection.bounded {
            while buffer.unreadPuts > 0, !connection.isLost {
                var e = XEvent()
                if XCheckIfEvent(d, &e, Self.isEventOfType, XPointer(bitPattern: Int(completionType))) != 0 {
                    _ = handleCompletion(&e)
                    continue
                }
                guard !connection.isLost else { break }
                // Nothing read yet: sleep until the server sends (the watchdog ends a server that never does).
                var p = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, -1)
            }
        }
        // A lost connection never completes: the buffer is ours again.
        if connection.isLost { buffer.unreadPuts = 0 }
    }

    /// Whether there is anything to fence: pixels travel through shared memory.
    var isShared: Bool { completionType != nil }

    /// The shared segment a completion event names. Nonisolated: the closures of a main-actor function
    /// given to the standard library check the executor at each call, once a frame here.
    private nonisolated static func segment(ofCompletion e: inout XEvent) -> UInt {
        withUnsafePointer(to: &e) {
            $0.withMemoryRebound(to: XShmCompletionEvent.self, capacity: 1) { UInt($0.pointee.shmseg) }
        }
    }

    /// `XCheckIfEvent`'s predicate: the event's type is the one passed as the argument.
    private static let isEventOfType: @convention(c) (OpaquePointer?, UnsafeMutablePointer<XEvent>?, XPointer?) -> Int32 = { _, e, arg in
        guard let e else { return 0 }
        return e.pointee.type == Int32(truncatingIfNeeded: Int(bitPattern: arg)) ? 1 : 0
    }
}
