public import DecantCore
public import DecantEventStream
import DecantFoundation
public import DecantJSON

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The server-sent events of a URL, read over `URLSession` and reconnecting as the WHATWG HTML Standard's
/// `EventSource` processing model does (§9.2.3), as an `AsyncSequence` of ``ServerSentEvent``.
///
/// ```swift
/// let request = URLRequest(url: URL(string: "https://api.example.com/v1/updates")!)
/// for try await event in URLSession.shared.eventSource(for: request) {
///     print(event.type, event.data)
/// }
/// ```
///
/// - Each connection is a request with `Accept: text/event-stream` (unless the request has an `Accept` field) and,
///   when the last event ID string is not empty, `Last-Event-ID` with it. The response's body is parsed by
///   ``EventStreamRecordReader``: an event is delivered only when its empty line arrived, so an event cut off by a
///   dropped connection is discarded (its `id` too; a `retry` field takes effect as soon as it is read).
/// - **Reconnects** when the body ends (cleanly or not) or when the request fails with a network error: after the
///   reconnection time (the last `retry`, ``Configuration/defaultReconnectionTime`` before one), growing with backoff
///   and jitter while connections keep ending without an event (``Configuration``), with `Last-Event-ID` set to the
///   last event ID seen; the parser of the new connection starts from that ID, so its events without `id` carry it.
/// - **Stops** without an error on `204 No Content`: the sequence ends.
/// - **Fails** without reconnecting on any other status than 200 (``SerializationError/Code/unacceptableStatusCode``,
///   the body read up to ``Configuration/maxErrorBodyBytes`` and decoded into the error through `registry`, as
///   `URLSession.records` does), on a media type other than `text/event-stream`
///   (``SerializationError/Code/unacceptableMediaType``, status and body in its response), on a URL the session
///   cannot fetch at all (`URLError.badURL`, `.unsupportedURL`), and when connections have ended without an event
///   more than ``Configuration/maxReconnects`` times in a row (``SerializationError/Code/limitExceeded``, the last
///   connection's error as its `underlying`).
/// - **Cancellation** of the consuming task ends the sequence at once, waiting or reading, with `CancellationError`;
///   the request is cancelled. Leaving the loop (`break`) or dropping the iterator cancels the request too.
///
/// ``state`` tells how many connections and reconnections there were, the failures in a row, the last event ID and
/// the reconnection time. Iterate an event source once at a time: every iteration starts from the configured
/// request, and ``state`` follows the latest.
public struct EventSource: AsyncSequence, Sendable {
    /// The events.
    public typealias Element = ServerSentEvent

    /// The request of every connection (with `Last-Event-ID` and `Accept` set as above).
    public let request: URLRequest
    /// The session that sends it (its configuration: a session of its own runs each connection, as for
    /// `URLSession.records`).
    public let session: URLSession
    /// Reconnection times, limits and the state observer.
    public let configuration: Configuration
    /// Decodes the body of an unacceptable status into the error (a problem document, say).
    public let registry: SerializerRegistry
    private let monitor: StateMonitor

    /// A snapshot of the state of the latest iteration.
    public var state: State { monitor.state }

    /// Creates an event source; nothing is sent until it is iterated.
    ///
    /// - Parameters:
    ///   - request: The request (a `GET`, usually).
    ///   - session: The session whose configuration runs the connections.
    ///   - configuration: Reconnection times and limits.
    ///   - registry: Decodes the body of an unacceptable status into the error; by default JSON and event streams
    ///     (pass one with `DecantProblemDetails` installed for problem documents).
    public init(
        request: URLRequest, session: URLSession = .shared, configuration: Configuration = Configuration(),
        registry: SerializerRegistry = SerializerRegistry(modules: [.json, .eventStream])
    ) {
        self.request = request
        self.session = session
        self.configuration = configuration
        self.registry = registry
        self.monitor = StateMonitor(observer: configuration.onStateChange)
    }

    /// Starts an iteration: the first request is sent by the first call to `next()`.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }

    /// Reads events, reconnecting as needed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let source: EventSource
        /// The events (or record errors) parsed but not handed out yet, and the next one.
        private var pending: [Result<ServerSentEvent, SerializationError>] = []
        private var nextPending = 0
        /// The open connection: its body and its parser.
        private var chunks: URLSessionBodyChunks.AsyncIterator?
        private var reader: EventStreamRecordReader?
        private var head: Response?
        /// Whether the open connection dispatched an event.
        private var dispatched = false
        /// The last event ID string and the last `retry` field (milliseconds), across connections.
        private var lastEventID: String
        private var retry: Int?
        private var failuresInARow = 0
        private var lastFailure: (any Error)?
        private var started = false
        private var finished = false

        init(source: EventSource) {
            self.source = source
            let configured = source.configuration.lastEventID
            lastEventID =
                configured.isEmpty ? source.request.value(forHTTPHeaderField: "Last-Event-ID") ?? "" : configured
            source.monitor.update {
                $0 = State()
                $0.readyState = .connecting
                $0.lastEventID = lastEventID
                $0.reconnectionTime = source.configuration.reconnectionTime(retry: nil)
            }
        }

        /// The next event, after as many reconnections as it takes; `nil` after a 204.
        ///
        /// - Throws: ``SerializationError`` when the connection fails (see ``EventSource``), or `CancellationError`.
        public mutating func next() async throws -> ServerSentEvent? {
            while !finished {
                while nextPending < pending.count {
                    let result = pending[nextPending]
                    nextPending += 1
                    switch result {
                    case .success(let event):
                        failuresInARow = 0
                        source.monitor.update {
                            $0.events += 1
                            $0.failuresInARow = 0
                            $0.lastEventID = event.lastEventID
                        }
                        return event
                    case .failure(let failure):
                        let error = SerializationError(
                            wrapping: failure, serializerID: MediaFormat.eventStream.id,
                            mediaType: head?.contentType, response: head)
                        if source.configuration.streamOptions.errorPolicy == .stop {
                            close()
                            throw error
                        }
                        source.monitor.update { $0.skippedErrors.append(error) }
                    }
                }
                pending.removeAll(keepingCapacity: true)
                nextPending = 0
                if chunks != nil {
                    try await read()
                } else {
                    try await connect()
                }
            }
            return nil
        }

        /// Reads the next chunk of the open connection into `pending`; at the end of its body (or when it fails),
        /// closes it for a reconnection.
        private mutating func read() async throws {
            let chunk: Data?
            do {
                chunk = try await chunks?.next()
            } catch {
                if error is CancellationError || Task.isCancelled {
                    close()
                    throw CancellationError()
                }
                // The connection dropped: what was parsed stays, the event it cut off is discarded.
                return endConnection(failure: error)
            }
            guard var reader else { return }
            var records: [Result<ServerSentEvent, SerializationError>] = []
            swap(&records, &pending)
            if let chunk {
                chunk.withUnsafeBytes { bytes in
                    do throws(SerializationError) {
                        try reader.consume(bytes, into: &records)
                    } catch {
                        records.append(.failure(error))
                    }
                }
            } else {
                do throws(SerializationError) {
                    try reader.finish(into: &records)
                } catch {
                    records.append(.failure(error))
                }
            }
            pending = records
            self.reader = reader
            if !dispatched, pending.contains(where: { if case .success = $0 { true } else { false } }) {
                dispatched = true
            }
            if chunk == nil { endConnection(failure: nil) }
        }

        /// The open connection ended, cleanly (`failure` is `nil`) or not: its last event ID and `retry` carry over.
        private mutating func endConnection(failure: (any Error)?) {
            if let reader {
                lastEventID = reader.lastEventID
                if let retry = reader.retry { self.retry = retry }
            }
            if !dispatched { failuresInARow += 1 }
            lastFailure = failure
            chunks = nil
            reader = nil
            dispatched = false
            let (lastEventID, retry, failuresInARow) = (lastEventID, retry, failuresInARow)
            let configuration = source.configuration
            source.monitor.update {
                $0.readyState = .connecting
                $0.lastEventID = lastEventID
                $0.reconnectionTime = configuration.reconnectionTime(retry: retry)
                $0.failuresInARow = failuresInARow
                $0.lastFailure = failure
            }
        }

        /// Waits the reconnection time (after the first connection), sends the request and checks the response:
        /// opens the connection, ends the sequence (204), throws (failed connection), or counts a failure to retry.
        private mutating func connect() async throws {
            let configuration = source.configuration
            if started {
                if let limit = configuration.maxReconnects, failuresInARow > limit {
                    close()
                    throw reconnectionLimitError(limit)
                }
                let delay = configuration.delay(
                    afterFailuresInARow: failuresInARow, reconnectionTime: configuration.reconnectionTime(retry: retry),
                    jitterSample: Double.random(in: 0..<1))
                source.monitor.update { $0.nextDelay = delay }
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    close()
                    throw error
                }
            }
            try Task.checkCancellation()
            let request = nextRequest()
            let reconnection = started
            started = true
            source.monitor.update {
                $0.nextDelay = nil
                $0.connections += 1
                if reconnection { $0.reconnections += 1 }
            }
            let head: Response
            let body: URLSessionBodyChunks
            do {
                (head, body) = try await source.session.decantStream(for: request)
            } catch {
                if Task.isCancelled {
                    close()
                    throw CancellationError()
                }
                if Self.isFutile(error) {
                    close()
                    throw error
                }
                // A network error: reestablish the connection.
                failuresInARow += 1
                lastFailure = error
                let failuresInARow = failuresInARow
                source.monitor.update {
                    $0.failuresInARow = failuresInARow
                    $0.lastFailure = error
                }
                return
            }
            if head.status == 204 {
                close()
                return
            }
            guard head.status == 200 else {
                let error = await statusError(head, body: body)
                close()
                throw error
            }
            guard let mediaType = head.contentType,
                MediaFormat.eventStream.mediaRanges.contains(where: { $0.matches(mediaType) })
            else {
                let error = await mediaTypeError(head, body: body)
                close()
                throw error
            }
            self.head = head
            reader = EventStreamRecordReader(
                maxRecordBytes: configuration.streamOptions.maxRecordBytes, lastEventID: lastEventID)
            chunks = body.makeAsyncIterator()
            source.monitor.update { $0.readyState = .open }
        }

        /// The request of the next connection.
        private func nextRequest() -> URLRequest {
            var request = source.request
            if request.value(forHTTPHeaderField: "Accept") == nil {
                request.setValue(
                    MediaFormat.eventStream.mediaRanges.map(\.description).joined(separator: ", "),
                    forHTTPHeaderField: "Accept")
            }
            // The standard fetches with the cache mode "no-store": a stream is never answered from a cache.
            request.cachePolicy = .reloadIgnoringLocalCacheData
            request.setValue(lastEventID.isEmpty ? nil : lastEventID, forHTTPHeaderField: "Last-Event-ID")
            return request
        }

        /// Ends the sequence (the open request, if any, is cancelled as its body is dropped).
        private mutating func close() {
            finished = true
            chunks = nil
            reader = nil
            pending = []
            nextPending = 0
            source.monitor.update {
                $0.readyState = .closed
                $0.nextDelay = nil
            }
        }

        /// Whether reconnecting after `error` is futile: the URL cannot be fetched at all.
        private static func isFutile(_ error: any Error) -> Bool {
            guard let error = error as? URLError else { return error is SerializationError }
            return [.badURL, .unsupportedURL, .cancelled].contains(error.code)
        }

        private func reconnectionLimitError(_ limit: Int) -> SerializationError {
            let cause = lastFailure.map { " The last one ended with: \($0)." } ?? " The last one ended cleanly."
            return SerializationError(
                code: .limitExceeded,
                message: "The event stream gave up: \(failuresInARow) connections in a row ended without an event, "
                    + "over the limit of \(limit) reconnections (EventSource.Configuration.maxReconnects).\(cause) "
                    + "Check the server, or raise maxReconnects (nil for no limit).",
                mediaType: head?.contentType, serializerID: MediaFormat.eventStream.id, underlying: lastFailure,
                response: head)
        }

        /// The error of a status other than 200 and 204: the registry's, with the body decoded into it.
        private func statusError(_ head: Response, body: URLSessionBodyChunks) async -> any Error {
            do {
                _ = try await source.registry.records(
                    head, body: body, as: ServerSentEvent.self, statusCodes: [200],
                    maxErrorBodyBytes: source.configuration.maxErrorBodyBytes)
            } catch {
                return error
            }
            return SerializationError(
                code: .unacceptableStatusCode,
                message: "The status \(head.status) is not acceptable for an event stream (200, or 204 to stop).",
                mediaType: head.contentType, response: head)
        }

        /// The error of a 200 response that is not `text/event-stream`, with (the beginning of) its body.
        private func mediaTypeError(_ head: Response, body: URLSessionBodyChunks) async -> SerializationError {
            let limit = source.configuration.maxErrorBodyBytes
            var response = head
            var failure: (any Error)?
            do {
                for try await chunk in body {
                    response.body.append(chunk.prefix(Swift.max(0, limit - response.body.count)))
                    if response.body.count >= limit { break }
                }
            } catch {
                failure = error
            }
            let mediaType = head.contentType.map { "'\($0)'" } ?? "no Content-Type"
            return SerializationError(
                code: .unacceptableMediaType,
                message: "The event stream's response has \(mediaType), not text/event-stream, so the connection "
                    + "failed and is not retried (WHATWG EventSource). Check the URL, and that the server streams "
                    + "events there; the status and body are in the error's response.",
                mediaType: head.contentType, serializerID: MediaFormat.eventStream.id, underlying: failure,
                response: response)
        }
    }
}

/// The state of an event source's latest iteration, guarded by a lock, and its observer.
final class StateMonitor: @unchecked Sendable {
    private let lock = NSLock()
    private var current = EventSource.State()
    private let observer: (@Sendable (EventSource.State) -> Void)?

    init(observer: (@Sendable (EventSource.State) -> Void)?) { self.observer = observer }

    var state: EventSource.State { lock.withLock { current } }

    func update(_ change: (inout EventSource.State) -> Void) {
        let snapshot = lock.withLock { () -> EventSource.State in
            change(&current)
            return current
        }
        observer?(snapshot)
    }
}
