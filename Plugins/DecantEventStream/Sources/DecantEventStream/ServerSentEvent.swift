public import DecantCore
public import DecantJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One event of a `text/event-stream` body, as the WHATWG HTML Standard's "interpreting an event stream" dispatches
/// it.
///
/// Its canonical form (a line of `decant decode --stream`, an element of ``ServerSentEvents``) is
/// `{"type", "data", "lastEventID"}`.
public struct ServerSentEvent: Sendable, Hashable, ConformanceRepresentable {
    /// The event type: the last `event` field of the event, or `message` when it had none.
    public var type: String
    /// The `data` fields of the event joined with LF.
    public var data: String
    /// The last event ID in effect when the event was dispatched (`id` fields persist across events).
    public var lastEventID: String
    /// The reconnection time in milliseconds in effect when the event was dispatched (the last valid `retry`
    /// field so far), if any.
    public var retry: Int?

    /// Creates an event.
    public init(type: String = "message", data: String, lastEventID: String = "", retry: Int? = nil) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
        self.retry = retry
    }

    /// The event's data parsed as JSON through `registry` (as an `application/json` body), the usual payload of
    /// streaming APIs.
    ///
    /// - Throws: `SerializationError` of the JSON serializer, such as `invalidBody` with the offset in the data.
    public func json(registry: SerializerRegistry = .standardJSON) throws(SerializationError) -> JSONValue {
        try registry.serialize(jsonResponse, as: JSONValue.self)
    }

    /// The event's data decoded as a `T` through `registry` (as an `application/json` body).
    ///
    /// - Throws: `SerializationError`, such as `decodingFailed` with the coding path.
    public func decodeData<T: Decodable & Sendable>(
        _ type: T.Type, registry: SerializerRegistry = .standardJSON
    )
        throws(SerializationError) -> T
    {
        try registry.decode(type, from: jsonResponse)
    }

    /// `{"type", "data", "lastEventID"}`.
    public func conformanceValue() throws -> JSONValue {
        .object([
            ("type", try JSONValue(checking: type)), ("data", try JSONValue(checking: data)),
            ("lastEventID", try JSONValue(checking: lastEventID)),
        ])
    }

    private var jsonResponse: Response {
        Response(status: 200, headers: ["Content-Type": "application/json"], body: Data(data.utf8))
    }
}

extension SerializerRegistry {
    /// A registry with the JSON module alone: what ``ServerSentEvent/json(registry:)`` uses unless given another.
    public static let standardJSON = SerializerRegistry(modules: [.json])
}

/// Every event of a whole `text/event-stream` body: what ``EventStreamSerializer`` makes when the body is not
/// streamed.
///
/// Its canonical form (`decant decode --json`, the `Fixtures/eventStream` expectations) is
/// `{"events": [{"type", "data", "lastEventID"}, ...], "retry": N or null}`, `retry` being the last valid one.
public struct ServerSentEvents: Sendable, Hashable, ConformanceRepresentable {
    /// The events, in order.
    public var events: [ServerSentEvent]
    /// The last valid `retry` field of the body, in milliseconds, even when no event followed it.
    public var retry: Int?

    /// Creates the value.
    public init(events: [ServerSentEvent], retry: Int? = nil) {
        self.events = events
        self.retry = retry
    }

    /// The canonical form.
    public func conformanceValue() throws -> JSONValue {
        let events = try events.map { try $0.conformanceValue() }
        return .object([("events", .array(events)), ("retry", retry.map { JSONValue($0) } ?? nil)])
    }
}

extension AsyncSequence where Element == ServerSentEvent {
    /// Each event's data decoded as a `T` through `registry`, as events arrive.
    ///
    /// ```swift
    /// for try await token in try await registry.records(head, body: chunks, as: ServerSentEvent.self)
    ///     .decodingData(Token.self) {
    ///     print(token.text, terminator: "")
    /// }
    /// ```
    public func decodingData<T: Decodable & Sendable>(
        _ type: T.Type, registry: SerializerRegistry = .standardJSON
    ) -> AsyncThrowingMapSequence<Self, T> {
        map { event in try event.decodeData(type, registry: registry) }
    }
}
