/// The state of an event stream as an ``EventSourceOpener`` reports it to the tool.
public struct EventSourceProgress: Sendable {
    /// The requests sent so far: the first and every reconnection.
    public var connections: Int
    /// The connections in a row that ended, or failed to start, without dispatching an event.
    public var failuresInARow: Int
    /// The events dispatched so far.
    public var events: Int
    /// The last event ID string (what the next reconnection sends as `Last-Event-ID`).
    public var lastEventID: String
    /// Whether a `200 text/event-stream` response is being read now.
    public var isOpen: Bool
    /// Why the last connection ended or failed to start; `nil` when it ended cleanly or none has ended.
    public var lastFailure: (any Error)?

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - connections: The requests sent so far.
    ///   - failuresInARow: The connections in a row that ended without an event.
    ///   - events: The events dispatched so far.
    ///   - lastEventID: The last event ID string.
    ///   - isOpen: Whether an event stream response is being read now.
    ///   - lastFailure: Why the last connection ended or failed to start, if it failed.
    public init(
        connections: Int, failuresInARow: Int = 0, events: Int = 0, lastEventID: String = "", isOpen: Bool,
        lastFailure: (any Error)? = nil
    ) {
        self.connections = connections
        self.failuresInARow = failuresInARow
        self.events = events
        self.lastEventID = lastEventID
        self.isOpen = isOpen
        self.lastFailure = lastFailure
    }

    /// The reconnections so far: the requests after the first.
    public var reconnections: Int { max(0, connections - 1) }
}
