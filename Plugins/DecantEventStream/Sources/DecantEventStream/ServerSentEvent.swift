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
///
/// An event keeps short data (up to 15 bytes: a token, a counter, a heartbeat) as the UTF-8 bytes it arrived as, and
/// decodes them when ``data`` is read; longer data is decoded once, when the event is dispatched. Either way ``data``
/// is the same string, and ``json(registry:)`` and ``decodeData(_:registry:)`` parse the bytes without making one.
public struct ServerSentEvent: Sendable, Hashable, ConformanceRepresentable {
    /// The event type: the last `event` field of the event, or `message` when it had none.
    public var type: String
    /// The `data` fields of the event joined with LF (invalid UTF-8 sequences replaced by U+FFFD).
    public var data: String {
        get {
            switch payload {
            case .text(let text): text
            case .short(let bytes): bytes.withBytes { String(decoding: $0, as: UTF8.self) }
            }
        }
        set { payload = .text(newValue) }
    }
    /// The last event ID in effect when the event was dispatched (`id` fields persist across events).
    public var lastEventID: String
    /// The reconnection time in milliseconds in effect when the event was dispatched (the last valid `retry`
    /// field so far), if any.
    public var retry: Int?

    /// The data, decoded or as its bytes.
    private var payload: Payload

    /// Creates an event.
    public init(type: String = "message", data: String, lastEventID: String = "", retry: Int? = nil) {
        self.type = type
        self.payload = .text(data)
        self.lastEventID = lastEventID
        self.retry = retry
    }

    /// Creates an event whose data is kept as its bytes (the parser's path for short data).
    init(type: String, shortData: ShortBytes, lastEventID: String, retry: Int?) {
        self.type = type
        self.payload = .short(shortData)
        self.lastEventID = lastEventID
        self.retry = retry
    }

    /// Whether the event has no data (a dispatched event always has a `data` field, which may be empty).
    public var isDataEmpty: Bool {
        switch payload {
        case .text(let text): text.isEmpty
        case .short(let bytes): bytes.count == 0
        }
    }

    /// Calls `body` with the data's UTF-8 bytes (as they arrived when the event came from a stream), without making
    /// a string when the event keeps its bytes.
    public func withDataBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch payload {
        case .short(let bytes):
            return try bytes.withBytes(body)
        case .text(var text):
            text.makeContiguousUTF8()
            return try text.utf8.withContiguousStorageIfAvailable { try body(UnsafeRawBufferPointer($0)) }!
        }
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

    /// Events are equal when their type, data (as text), last event ID and retry time are.
    public static func == (left: ServerSentEvent, right: ServerSentEvent) -> Bool {
        guard left.type == right.type, left.lastEventID == right.lastEventID, left.retry == right.retry else {
            return false
        }
        if case .short(let leftBytes) = left.payload, case .short(let rightBytes) = right.payload,
            leftBytes == rightBytes
        {
            return true
        }
        return left.data == right.data
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(data)
        hasher.combine(lastEventID)
        hasher.combine(retry)
    }

    private var jsonResponse: Response {
        Response(
            status: 200, headers: ["Content-Type": "application/json"],
            body: withDataBytes { Data($0) })
    }

    /// The data: text, or up to 15 bytes kept as they arrived.
    private enum Payload: Sendable {
        case text(String)
        case short(ShortBytes)
    }
}

/// Up to 15 bytes in two words, the count in the last byte.
struct ShortBytes: Sendable, Equatable {
    /// The most bytes kept.
    static let capacity = 15

    /// Bytes 0 to 7, little-endian.
    var low: UInt64
    /// Bytes 8 to 14, little-endian, and the count in the top byte.
    var high: UInt64

    /// The bytes of `words` (zeros after the last) and their count, at most 15.
    @inline(__always)
    init(words: (UInt64, UInt64), count: Int) {
        low = words.0
        high = words.1 | UInt64(truncatingIfNeeded: count) &<< 56
    }

    /// The number of bytes.
    var count: Int { Int(truncatingIfNeeded: high &>> 56) }

    /// Calls `body` with the bytes.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let words = (low.littleEndian, high.littleEndian)
        let count = self.count
        return try withUnsafeBytes(of: words) { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

}

extension SerializerRegistry {
    /// A registry with the JSON module alone: what ``ServerSentEvent/json(registry:)`` uses unless given another.
    public static let standardJSON = SerializerRegistry(modules: [.json])
}

/// Every event of a whole `text/event-stream` body: what ``EventStreamResponseSerializer`` makes when the body is not
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
