public import DecantCore

extension EventSource {
    /// Where an ``EventSource`` is: its ready state as the WHATWG `EventSource` names them, and the counts that tests
    /// and tools read (``EventSource/state`` is a snapshot; ``Configuration/onStateChange`` hears every change).
    public struct State: Sendable {
        /// The WHATWG `readyState`.
        public enum ReadyState: String, Sendable, Hashable {
            /// Waiting before a connection, or waiting for its response.
            case connecting
            /// A `200 text/event-stream` response is being read.
            case open
            /// The stream ended: 204, a failed connection, the reconnection limit, cancellation, or not started.
            case closed
        }

        /// The ready state.
        public var readyState: ReadyState = .closed
        /// The requests sent so far (the first and every reconnection).
        public var connections = 0
        /// The reconnections so far: the requests after the first.
        public var reconnections = 0
        /// The connections in a row that ended, or failed to start, without dispatching an event: what the backoff
        /// and ``Configuration/maxReconnects`` count. An event resets it to 0.
        public var failuresInARow = 0
        /// The events delivered so far.
        public var events = 0
        /// The last event ID string: sent as `Last-Event-ID` on the next reconnection when not empty. Keep it to
        /// resume after a restart (``Configuration/lastEventID``).
        public var lastEventID = ""
        /// The reconnection time in effect (the last `retry` field, or the default).
        public var reconnectionTime: Duration = .zero
        /// The wait before the next connection, while waiting for it; `nil` otherwise.
        public var nextDelay: Duration?
        /// Why the last connection ended or failed to start (the session's error, ``SerializationError`` with
        /// ``SerializationError/Code/truncatedBody`` for a body cut short); `nil` when it ended cleanly.
        public var lastFailure: (any Error)?
        /// The events left out because they were over the limit (with ``Configuration/streamOptions``'s
        /// `errorPolicy` `skip` or `collect`).
        public var skippedErrors: [SerializationError] = []
    }
}
