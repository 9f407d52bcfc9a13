public import DecantCore
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension URLSession {
    /// Starts `request` and returns the records of its body as they arrive, decoded by the streaming serializer its
    /// media type resolves to in `registry` (NDJSON, server-sent events, ...).
    ///
    /// The call returns once the status and header fields are in: a status outside `statusCodes` throws there, with
    /// the (bounded) body decoded into the error. Records then come while the body downloads; cancelling the
    /// consuming task, or dropping the stream, cancels the request. A slow consumer suspends the task above 1 MiB of
    /// unread bytes, which pauses the download on Apple platforms; on Linux, FoundationNetworking keeps delivering
    /// the bytes of a suspended task, so the unread bytes grow with the body there (a server that streams faster
    /// than its client reads is held back only by the decoding's own speed). `URLSession` removes `gzip` and `deflate` content codings
    /// itself, so the stream sees the decoded bytes.
    ///
    /// ```swift
    /// let registry = SerializerRegistry.standard.installing(.eventStream)
    /// for try await event in try await URLSession.shared.records(ServerSentEvent.self, for: request, registry: registry) {
    ///     print(event.data)
    /// }
    /// ```
    ///
    /// The session's configuration is used (a session of its own runs the request, so that its delegate sees the
    /// bytes as they arrive; it works the same on Linux, where `bytes(for:)` does not exist).
    ///
    /// - Throws: ``SerializationError`` (status, no streaming serializer, ...), or the session's error when no
    ///   response arrived.
    public func records<Record: Sendable>(
        _ type: Record.Type, for request: URLRequest, registry: SerializerRegistry,
        options: StreamOptions = StreamOptions(), statusCodes: StatusCodes = .success
    ) async throws -> RecordStream<URLSessionBodyChunks, Record> {
        let (head, chunks) = try await decantStream(for: request)
        return try await registry.records(head, body: chunks, as: type, options: options, statusCodes: statusCodes)
    }

    /// Starts `request` and returns its head (status and header fields, an empty body) once it arrives, and its body
    /// as chunks of bytes while they arrive: the input of ``SerializerRegistry/records(_:body:as:options:statusCodes:maxErrorBodyBytes:)``
    /// or of a ``RecordStream``.
    ///
    /// `Content-Encoding` is left out of the head: `URLSession` has already decoded the bytes.
    ///
    /// - Throws: the session's error when no response arrived.
    public func decantStream(for request: URLRequest) async throws -> (Response, URLSessionBodyChunks) {
        let state = StreamingTaskState()
        let delegate = StreamingTaskDelegate(state: state)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: request)
        state.start(task)
        // The session lets the task finish, then releases its delegate.
        session.finishTasksAndInvalidate()
        let lifetime = StreamingTaskLifetime(state: state)
        let urlResponse = try await withTaskCancellationHandler {
            try await state.head()
        } onCancel: {
            state.cancel()
        }
        var head = try Response(data: Data(), response: urlResponse, request: request)
        head.headers.remove("Content-Encoding")
        return (head, URLSessionBodyChunks(lifetime: lifetime))
    }
}

/// The body of a `URLSession` request as it arrives, in chunks of bytes, with flow control: the task is suspended
/// while more than 1 MiB waits unread and resumed below 256 KiB (effective on Apple platforms; FoundationNetworking
/// on Linux does not pause a running transfer). Iterate it once; dropping it (and its iterator)
/// before the end cancels the request.
public struct URLSessionBodyChunks: AsyncSequence, Sendable {
    /// A chunk of the body.
    public typealias Element = Data

    let lifetime: StreamingTaskLifetime

    /// Reads the chunks.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(lifetime: lifetime) }

    /// Reads the chunks as they arrive.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let lifetime: StreamingTaskLifetime

        /// The next chunk; `nil` at the end of the body.
        ///
        /// - Throws: the session's error (the connection dropped), or `CancellationError` when the consuming task was
        ///   cancelled (the request is cancelled too).
        public mutating func next() async throws -> Data? {
            let state = lifetime.state
            return try await withTaskCancellationHandler {
                try await state.nextChunk()
            } onCancel: {
                state.cancel()
            }
        }
    }
}

/// Cancels the request when the last holder of the body goes away before its end.
final class StreamingTaskLifetime: Sendable {
    let state: StreamingTaskState

    init(state: StreamingTaskState) { self.state = state }

    deinit { state.cancel() }
}

/// What the delegate hands over to the reader: the head, the chunks, the end; guarded by a lock.
final class StreamingTaskState: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var response: URLResponse?
    private var headWaiter: CheckedContinuation<URLResponse, any Error>?
    private var chunks: [Data] = []
    private var chunkIndex = 0
    private var bufferedBytes = 0
    private var chunkWaiter: CheckedContinuation<Data?, any Error>?
    private var ended = false
    private var failure: (any Error)?
    private var suspended = false
    private var cancelled = false

    /// Unread bytes above which the task is suspended, and below which it is resumed.
    static let highWater = 1 << 20
    static let lowWater = 1 << 18

    func start(_ task: URLSessionDataTask) {
        lock.withLock { self.task = task }
        task.resume()
    }

    func cancel() {
        let task = lock.withLock { () -> URLSessionDataTask? in
            cancelled = true
            return ended ? nil : self.task
        }
        task?.cancel()
    }

    func head() async throws -> URLResponse {
        try await withCheckedThrowingContinuation { continuation in
            lock.lock()
            if let response {
                lock.unlock()
                continuation.resume(returning: response)
            } else if ended {
                let error = failure ?? URLError(.badServerResponse)
                lock.unlock()
                continuation.resume(throwing: error)
            } else {
                headWaiter = continuation
                lock.unlock()
            }
        }
    }

    func nextChunk() async throws -> Data? {
        try await withCheckedThrowingContinuation { continuation in
            lock.lock()
            if chunkIndex < chunks.count {
                let chunk = chunks[chunkIndex]
                chunkIndex += 1
                if chunkIndex == chunks.count {
                    chunks.removeAll(keepingCapacity: true)
                    chunkIndex = 0
                }
                bufferedBytes -= chunk.count
                let resume = suspended && bufferedBytes < Self.lowWater ? task : nil
                if resume != nil { suspended = false }
                lock.unlock()
                resume?.resume()
                continuation.resume(returning: chunk)
            } else if ended {
                let error = cancelled ? CancellationError() : failure
                lock.unlock()
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: nil) }
            } else {
                chunkWaiter = continuation
                lock.unlock()
            }
        }
    }

    func received(_ response: URLResponse) {
        lock.lock()
        self.response = response
        let waiter = headWaiter
        headWaiter = nil
        lock.unlock()
        waiter?.resume(returning: response)
    }

    func received(_ data: Data) {
        lock.lock()
        if let waiter = chunkWaiter {
            chunkWaiter = nil
            lock.unlock()
            waiter.resume(returning: data)
            return
        }
        chunks.append(data)
        bufferedBytes += data.count
        let suspend = !suspended && bufferedBytes > Self.highWater ? task : nil
        if suspend != nil { suspended = true }
        lock.unlock()
        suspend?.suspend()
    }

    func completed(with error: (any Error)?) {
        lock.lock()
        ended = true
        failure = error
        let head = headWaiter
        headWaiter = nil
        let chunk = chunkWaiter
        chunkWaiter = nil
        let cancelled = self.cancelled
        task = nil
        lock.unlock()
        head?.resume(throwing: error ?? URLError(.badServerResponse))
        if let chunk {
            if cancelled {
                chunk.resume(throwing: CancellationError())
            } else if let error {
                chunk.resume(throwing: error)
            } else {
                chunk.resume(returning: nil)
            }
        }
    }
}

/// The session delegate of one streamed request.
final class StreamingTaskDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let state: StreamingTaskState

    init(state: StreamingTaskState) { self.state = state }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        state.received(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.received(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        state.completed(with: error)
    }
}
