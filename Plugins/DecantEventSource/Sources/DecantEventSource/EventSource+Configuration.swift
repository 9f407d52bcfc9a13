public import DecantCore

extension EventSource {
    /// How an ``EventSource`` waits between connections and when it gives up.
    ///
    /// The wait before a reconnection is the *reconnection time*: the last `retry` field the server sent (clamped to
    /// ``maxReconnectionTime``), or ``defaultReconnectionTime`` until it sends one. When connections keep ending
    /// without an event (the server is down, or answers and closes at once), the wait grows: after the `k`-th such
    /// connection in a row (`k` ≥ 2) it is `reconnectionTime · 2^(k−1)`, capped at ``maxBackoff`` (or at the
    /// reconnection time when that is longer), then shortened by a random part of up to ``jitter`` of it, never below
    /// the reconnection time. A connection that dispatched an event resets the count, so the next wait is the
    /// reconnection time again. ``delay(afterFailuresInARow:reconnectionTime:jitterSample:)`` states the rule.
    public struct Configuration: Sendable {
        /// The reconnection time until the server sends a `retry` field: 3 seconds (the WHATWG standard leaves it to
        /// the client, "probably in the region of a few seconds").
        public var defaultReconnectionTime: Duration
        /// The longest reconnection time a `retry` field sets: 10 minutes. A larger value (`retry` is untrusted
        /// input: `retry: 99999999999999` is valid) is clamped to it.
        public var maxReconnectionTime: Duration
        /// The cap of the exponential backoff: 30 seconds. It never shortens the reconnection time itself.
        public var maxBackoff: Duration
        /// The largest fraction of a backed-off wait taken off at random, from 0 (none) to 1: 0.5. Spreads out the
        /// clients of a server that comes back.
        public var jitter: Double
        /// The most reconnections in a row without an event between them (10), or `nil` for no limit. When a
        /// connection ends without an event for the `maxReconnects + 1`-th time in a row, the stream throws
        /// ``SerializationError/Code/limitExceeded`` instead of reconnecting. A stream that keeps dispatching
        /// events reconnects without limit, as a browser's does.
        public var maxReconnects: Int?
        /// The last event ID to resume from on the first request (sent as `Last-Event-ID` when not empty), such as
        /// one an app kept from ``EventSource/State/lastEventID`` before it quit. Empty by default: the request's
        /// own `Last-Event-ID` field, if it has one, is used then.
        public var lastEventID: String
        /// The parser's limits: `maxRecordBytes` bounds one event (16 MiB); `errorPolicy` says whether an event
        /// over it ends the stream (`stop`, the default) or is left out (`skip`, `collect`: counted in
        /// ``EventSource/State/skippedErrors``).
        public var streamOptions: StreamOptions
        /// How much of the body of a failed connection (a status other than 200 or 204, a media type other than
        /// `text/event-stream`) is read into the error: 1 MiB.
        public var maxErrorBodyBytes: Int
        /// Called with the new state on every change (connecting, open, waiting, closed, each event), on the
        /// consuming task: keep it short. For logs and progress displays.
        public var onStateChange: (@Sendable (State) -> Void)?

        /// Creates a configuration; every parameter has the default its property documents.
        public init(
            defaultReconnectionTime: Duration = .seconds(3), maxReconnectionTime: Duration = .seconds(600),
            maxBackoff: Duration = .seconds(30), jitter: Double = 0.5, maxReconnects: Int? = 10,
            lastEventID: String = "", streamOptions: StreamOptions = StreamOptions(),
            maxErrorBodyBytes: Int = 1 << 20, onStateChange: (@Sendable (State) -> Void)? = nil
        ) {
            self.defaultReconnectionTime = defaultReconnectionTime
            self.maxReconnectionTime = maxReconnectionTime
            self.maxBackoff = maxBackoff
            self.jitter = jitter
            self.maxReconnects = maxReconnects
            self.lastEventID = lastEventID
            self.streamOptions = streamOptions
            self.maxErrorBodyBytes = maxErrorBodyBytes
            self.onStateChange = onStateChange
        }

        /// The reconnection time for the last `retry` field, in milliseconds (`nil` before the server sent one):
        /// the field's value clamped to ``maxReconnectionTime``, or ``defaultReconnectionTime``.
        public func reconnectionTime(retry: Int?) -> Duration {
            guard let retry else { return Self.nonNegative(defaultReconnectionTime) }
            let cap = Self.nonNegative(maxReconnectionTime)
            let capMilliseconds = Int(Swift.min(Self.seconds(cap) * 1000, Double(Int.max / 2)))
            return retry >= capMilliseconds ? cap : .milliseconds(Swift.max(0, retry))
        }

        /// The wait before the next connection, when `failuresInARow` connections in a row have ended (or failed to
        /// start) without an event: `reconnectionTime` for 0 or 1; for `k` ≥ 2, `reconnectionTime · 2^(k−1)` capped
        /// at the larger of ``maxBackoff`` and `reconnectionTime`, less `jitterSample · jitter` of it, and at least
        /// `reconnectionTime`.
        ///
        /// - Parameter jitterSample: A number in `0..<1`, uniformly random when the stream calls it.
        public func delay(
            afterFailuresInARow failuresInARow: Int, reconnectionTime: Duration, jitterSample: Double
        )
            -> Duration
        {
            let base = Self.seconds(Self.nonNegative(reconnectionTime))
            guard failuresInARow >= 2 else { return .seconds(base) }
            let cap = Swift.max(base, Self.seconds(Self.nonNegative(maxBackoff)))
            // 2^62 already exceeds any cap; the exponent is bounded so the power stays finite.
            let grown = Swift.min(
                cap, base * Double(sign: .plus, exponent: Swift.min(failuresInARow - 1, 62), significand: 1))
            let fraction = Swift.min(Swift.max(jitter, 0), 1) * Swift.min(Swift.max(jitterSample, 0), 1)
            return .seconds(Swift.max(base, grown * (1 - fraction)))
        }

        /// `duration` in seconds.
        static func seconds(_ duration: Duration) -> Double {
            let (seconds, attoseconds) = duration.components
            return Double(seconds) + Double(attoseconds) * 1e-18
        }

        /// `duration`, or zero when it is negative.
        static func nonNegative(_ duration: Duration) -> Duration { duration < .zero ? .zero : duration }
    }
}
