import Foundation

/// The listeners of one kind of event: async streams and main-actor handlers, served in the order they
/// registered. One registry for screen events and one for window events.
@MainActor
final class EventRegistry<Event: Sendable> {
    private var streams: [UUID: AsyncStream<Event>.Continuation] = [:]
    private var handlers: [(id: UUID, handler: @MainActor (Event) -> Void)] = []

    /// The events from now on, as an async sequence.
    func stream() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        let id = UUID()
        streams[id] = continuation
        // Strong, not weak (a weak reference gives the registry a side table that LeakSanitizer takes for a
        // leak): the stream calls this once when it ends, and lets the closure go.
        continuation.onTermination = { _ in
            Task { @MainActor in self.streams[id] = nil }
        }
        return stream
    }

    /// Calls `handler` on the main actor for every event from now on, until the observation is cancelled
    /// or released.
    func observe(_ handler: @escaping @MainActor (Event) -> Void) -> EventObservation {
        let id = UUID()
        handlers.append((id, handler))
        // The observation keeps the registry (not the other way round): no cycle, and no weak side table.
        return EventObservation { self.handlers.removeAll { $0.id == id } }
    }

    /// Delivers an event to every handler, then to every stream.
    func send(_ event: Event) {
        for h in handlers { h.handler(event) }
        for c in streams.values { c.yield(event) }
    }
}

/// A running observation (`Application.onScreenEvent`, `onWindowEvent`): it ends when cancelled or
/// released, so keep it as long as you want the events.
@MainActor
public final class EventObservation {
    private var end: (() -> Void)?

    init(_ end: @escaping () -> Void) { self.end = end }

    /// Stops the events; calling it again does nothing.
    public func cancel() {
        end?()
        end = nil
    }

    isolated deinit { cancel() }
}
