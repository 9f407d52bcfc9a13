#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension AsyncSequence where Element == ServerSentEvent {
    /// Each event as the bytes `writer` writes it, one chunk per event, as the events arrive: a body a server can
    /// send event by event. The writer's ID and reconnection time in effect carry over from event to event, as they
    /// do at the client; an event that cannot be written ends the sequence with its `SerializationError`.
    ///
    /// ```swift
    /// for try await chunk in events.encodedChunks() { try await connection.send(chunk) }
    /// ```
    public func encodedChunks(
        using writer: EventStreamRecordWriter = EventStreamRecordWriter()
    ) -> EventStreamChunks<Self> {
        EventStreamChunks(base: self, writer: writer)
    }
}

/// The chunks of a stream of events, one per event: what `encodedChunks(using:)` returns.
public struct EventStreamChunks<Base: AsyncSequence>: AsyncSequence where Base.Element == ServerSentEvent {
    /// The chunks are `Data`.
    public typealias Element = Data

    /// The events.
    let base: Base
    /// The writer of the first event.
    let writer: EventStreamRecordWriter

    /// Writes the events one by one, with one writer for the whole stream.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var writer: EventStreamRecordWriter

        /// The next event's bytes, or `nil` after the last event.
        ///
        /// - Throws: The error of the events' sequence, or the `SerializationError` of an event that cannot be
        ///   written.
        public mutating func next() async throws -> Data? {
            guard let event = try await base.next() else { return nil }
            return try writer.write(event)
        }
    }

    /// An iterator with a writer of its own.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), writer: writer)
    }
}

extension EventStreamChunks: Sendable where Base: Sendable {}
