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
    /// itself, so the stream sees the decoded bytes. A request without an `Accept` field (in it or in the session's
    /// configuration) is sent with the `Accept` of the registry's formats that stream
    /// (``SerializerRegistry/acceptHeader(for:)`` with ``SerializerRegistry/FormatCapabilities/records``). A
    /// connection that drops before the end of the body ends the stream with
    /// ``SerializationError/Code/truncatedBody`` after the records that arrived.
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
        let request = requestAccepting(registry.acceptHeader(for: .records), request)
        let (head, chunks) = try await decantStream(for: request)
        return try await registry.records(head, body: chunks, as: type, options: options, statusCodes: statusCodes)
    }

    /// Starts `request` and returns its head (status and header fields, an empty body) once it arrives, and its body
    /// as chunks of bytes while they arrive: the input of ``SerializerRegistry/records(_:body:as:options:statusCodes:maxErrorBodyBytes:)``
    /// or of a ``RecordStream``.
    ///
    /// The head describes the body as it arrives: the content codings `URLSession` removes are left out of
    /// `Content-Encoding`, and `Content-Length` goes with them (the rule of `Response(data:response:request:)`).
    ///
    /// - Throws: the session's error when no response arrived.
    public func decantStream(for request: URLRequest) async throws -> (Response, URLSessionBodyChunks) {
        let (_, head, lifetime) = try await startStreaming(request)
        return (head, URLSessionBodyChunks(lifetime: lifetime))
    }

    /// Starts `request` on a session of its own with this session's configuration, and returns once the head has
    /// arrived: the `URLResponse`, the head as a ``Response`` (without a body) and the task's lifetime, whose last
    /// holder cancels it.
    func startStreaming(_ request: URLRequest) async throws -> (URLResponse, Response, StreamingTaskLifetime) {
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
        let head = try Response(data: Data(), response: urlResponse, request: request, bodyLength: nil)
        state.setHead(head)
        return (urlResponse, head, lifetime)
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
        /// - Throws: `SerializationError/Code/truncatedBody` when the transfer fails before the end of the body
        ///   (the connection dropped: the session's error is its `SerializationError/underlying`, the number of
        ///   bytes received its `SerializationError/offset`, the head its response), or `CancellationError` when
        ///   the consuming task was cancelled (the request is cancelled too).
        public mutating func next() async throws -> Data? {
            try await lifetime.nextChunk(receivedBody: nil)
        }
    }
}

/// Cancels the request when the last holder of the body goes away before its end.
final class StreamingTaskLifetime: Sendable {
    let state: StreamingTaskState

    init(state: StreamingTaskState) { self.state = state }

    deinit { state.cancel() }

    /// The next chunk, `nil` at the end; cancelling the calling task cancels the request. A failure of the transfer
    /// is thrown as ``SerializationError/Code/truncatedBody``, with `receivedBody` (the bytes received, when the
    /// caller keeps them) as the body of its response.
    func nextChunk(receivedBody: Data?) async throws -> Data? {
        let state = self.state
        do {
            return try await withTaskCancellationHandler {
                try await state.nextChunk()
            } onCancel: {
                state.cancel()
            }
        } catch {
            throw state.truncation(error, receivedBody: receivedBody)
        }
    }

    /// The whole body, received chunk by chunk: cancelled, with ``SerializationError/Code/bodyTooLarge``, as soon as
    /// its `Content-Length` or the bytes received are over `limit`.
    func wholeBody(head: Response, limit: BodySizeLimit?) async throws -> Data {
        if let limit, !head.hasNoBodyByProtocol, case .bytes(let length)? = head.headers.contentLength,
            !limit.admits(byteCount: length)
        {
            state.cancel()
            throw limit.downloadError(head, announcedLength: length)
        }
        var body = Data()
        while let chunk = try await nextChunk(receivedBody: body) {
            body.append(chunk)
            if let limit, !limit.admits(byteCount: body.count) {
                state.cancel()
                throw limit.downloadError(head.replacingBody(body))
            }
        }
        return body
    }
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
    private var headResponse: Response?
    private var receivedBytes = 0

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

    /// Keeps the head as the bridge describes it, for the errors of the body.
    func setHead(_ head: Response) { lock.withLock { headResponse = head } }

    /// `error`, when it is a failure of the transfer after the head arrived (a `URLError` other than `cancelled`),
    /// as Decant's error for a body cut short: the head and `receivedBody` (or an empty body) as its response, the
    /// number of bytes received as its offset, `error` as its underlying error. Any other error as it is.
    func truncation(_ error: any Error, receivedBody: Data?) -> any Error {
        let (head, received) = lock.withLock { (headResponse, receivedBytes) }
        let nsError = error as NSError
        guard var response = head, nsError.domain == NSURLErrorDomain, nsError.code != NSURLErrorCancelled else {
            return error
        }
        response.body = receivedBody ?? Data()
        var announced = ""
        if case .bytes(let length)? = response.headers.contentLength {
            announced = " of the \(length) its Content-Length announces"
        }
        let kept = receivedBody == nil ? "" : ", with the bytes received,"
        return SerializationError(
            code: .truncatedBody,
            message: "The body is truncated: the transfer failed after \(received) bytes\(announced), before the end "
                + "of the body (URLSession: \(nsError.localizedDescription)). The server closed the connection early or "
                + "the network failed; the status and header fields\(kept) are in the error's response. Retry the "
                + "request, and check the server if it keeps happening.",
            mediaType: response.contentType, offset: received, underlying: error, response: response)
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
        receivedBytes += data.count
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
