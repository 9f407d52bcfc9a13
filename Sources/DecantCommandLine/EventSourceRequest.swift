public import Decant

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// What `get --stream` asks of an ``EventSourceOpener``: the request and its session, the reconnection options given
/// on the command line, and where events and state go.
public struct EventSourceRequest: Sendable {
    /// The request of every connection: its method, `--header` fields, `Accept` and body. The event source adds
    /// `Last-Event-ID` on reconnections.
    public var request: URLRequest
    /// The session whose configuration runs each connection: its `timeoutIntervalForRequest` is `--timeout`, the
    /// longest a connection may stay silent (no head, no byte of the body) before it counts as dropped.
    public var session: URLSession
    /// The tool's registry: decodes the body of a failed connection (a problem document, say) into its error.
    public var registry: SerializerRegistry
    /// The most reconnections in a row without an event (`--max-reconnects`); `nil` when it was not given: the event
    /// source's own default (10 for `DecantEventSource`).
    public var maxReconnects: Int?
    /// The reconnection time until the server sends a `retry` field (`--retry`); `nil` when it was not given: the
    /// event source's own default (3 seconds for `DecantEventSource`).
    public var reconnectionTime: Duration?
    /// The last event ID to send as `Last-Event-ID` on the first request (`--last-event-id`); empty for none.
    public var lastEventID: String
    private let onEvent: @Sendable (any Sendable) throws -> Void
    private let onProgress: @Sendable (EventSourceProgress) -> Void

    /// Creates a request; the tool makes one for each `get --stream` run that reads an event stream.
    ///
    /// - Parameters:
    ///   - request: The request of every connection.
    ///   - session: The session whose configuration runs the connections.
    ///   - registry: Decodes the body of a failed connection into its error.
    ///   - maxReconnects: The reconnection limit, or `nil` for the event source's default.
    ///   - reconnectionTime: The reconnection time before a `retry` field, or `nil` for the event source's default.
    ///   - lastEventID: The last event ID for the first request, or empty.
    ///   - onEvent: Called with each event, on the task that reads the stream; its error ends the stream.
    ///   - onProgress: Called with each change of the connection state.
    public init(
        request: URLRequest, session: URLSession, registry: SerializerRegistry, maxReconnects: Int? = nil,
        reconnectionTime: Duration? = nil, lastEventID: String = "",
        onEvent: @escaping @Sendable (any Sendable) throws -> Void,
        onProgress: @escaping @Sendable (EventSourceProgress) -> Void = { _ in }
    ) {
        self.request = request
        self.session = session
        self.registry = registry
        self.maxReconnects = maxReconnects
        self.reconnectionTime = reconnectionTime
        self.lastEventID = lastEventID
        self.onEvent = onEvent
        self.onProgress = onProgress
    }

    /// Hands over one event as it is dispatched: the tool prints its canonical form as one JSON line.
    ///
    /// - Throws: When the event has no canonical form (its type is not `ConformanceRepresentable`), or cannot be
    ///   printed; rethrow it to end the stream.
    public func deliver(_ event: any Sendable) throws { try onEvent(event) }

    /// Tells the tool the connection state after a change: it ends the run when the first request gets no
    /// response, and says at the end how many events and reconnections there were and the last event ID.
    public func report(_ progress: EventSourceProgress) { onProgress(progress) }
}
