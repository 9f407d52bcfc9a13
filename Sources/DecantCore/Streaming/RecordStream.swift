#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The records of a body that arrives in chunks, decoded while it arrives: an `AsyncSequence` over an
/// `AsyncSequence` of byte chunks (`Data`, `[UInt8]`, anything `ContiguousBytes`).
///
/// - **Framing**: records may be cut anywhere by the chunks; the reader keeps the unfinished one, up to
///   ``StreamOptions/maxRecordBytes``.
/// - **Back-pressure**: a chunk is read only when the records of the previous ones have been taken, so a slow
///   consumer makes the stream read slowly instead of buffering the body.
/// - **Cancellation**: cancelling the consuming task stops the reading: `next()` throws `CancellationError` before
///   it asks for another chunk (and the chunk sequence sees the cancellation too).
/// - **Errors**: a record that cannot be decoded goes by ``StreamOptions/errorPolicy``; an error of the chunk
///   sequence (the connection dropped) is thrown as it is. Errors carry the stream's serializer, media type and head
///   (status and headers; the body is not kept).
///
/// Make one with ``SerializerRegistry/records(_:body:as:options:statusCodes:maxErrorBodyBytes:)``, which validates the
/// status and chooses the serializer by media type, or directly from a serializer with
/// ``init(_:head:chunks:options:)``. Each iteration starts a fresh reader over a fresh iterator of the chunks.
///
/// ```swift
/// for try await record in try await registry.records(head, body: chunks, as: JSONValue.self) {
///     print(record)
/// }
/// ```
public struct RecordStream<Chunks: AsyncSequence, Record: Sendable>: AsyncSequence
where Chunks.Element: ContiguousBytes {
    /// The records.
    public typealias Element = Record

    /// The status and headers of the response (its body is empty: the bytes come from the chunks).
    public let head: Response
    /// The serializer whose reader makes the records.
    public let serializerID: SerializerID
    /// The options.
    public let options: StreamOptions
    /// The errors of the records left out so far (``RecordErrorPolicy/skip`` and ``RecordErrorPolicy/collect``), in
    /// the order of the body, over every iteration of this stream.
    public var skippedErrors: [SerializationError] {
        get async { await log.errors }
    }

    let chunks: Chunks
    let start: @Sendable () -> ErasedRecordReader<Record>
    let log = RecordErrorLog()

    /// The records of `chunks`, decoded by `serializer` (no status check, no resolution: see
    /// ``SerializerRegistry/records(_:body:as:options:statusCodes:maxErrorBodyBytes:)`` for those).
    ///
    /// - Parameters:
    ///   - serializer: The streaming serializer.
    ///   - head: The response's status and headers.
    ///   - chunks: The body, in chunks.
    ///   - options: The error policy and the record size limit.
    /// - Throws: ``SerializationError`` when the serializer cannot decode a body with this head.
    public init<Serializer: StreamingResponseSerializer>(
        _ serializer: Serializer, head: Response, chunks: Chunks, options: StreamOptions = StreamOptions()
    ) throws(SerializationError) where Serializer.Record == Record {
        let reader: Serializer.Reader
        do {
            reader = try serializer.makeRecordReader(for: head, options: options)
        } catch {
            throw Self.contextualised(
                error, serializerID: serializer.id, head: head)
        }
        self.init(head: head, serializerID: serializer.id, chunks: chunks, options: options) {
            ErasedRecordReader(reader)
        }
    }

    init(
        head: Response, serializerID: SerializerID, chunks: Chunks, options: StreamOptions,
        start: @escaping @Sendable () -> ErasedRecordReader<Record>
    ) {
        self.head = head
        self.serializerID = serializerID
        self.options = options
        self.chunks = chunks
        self.start = start
    }

    /// Starts reading the chunks.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            chunks: chunks.makeAsyncIterator(), reader: start(), policy: options.errorPolicy, log: log,
            serializerID: serializerID, head: head)
    }

    /// `error` with the stream's serializer, media type and head filled in where it has none.
    static func contextualised(
        _ error: SerializationError, serializerID: SerializerID, head: Response
    )
        -> SerializationError
    {
        SerializationError(wrapping: error, serializerID: serializerID, mediaType: head.contentType, response: head)
    }

    /// Reads chunks as records are asked for.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: Chunks.AsyncIterator
        var reader: ErasedRecordReader<Record>
        let policy: RecordErrorPolicy
        let log: RecordErrorLog
        let serializerID: SerializerID
        let head: Response
        var pending: [Result<Record, SerializationError>] = []
        var nextPending = 0
        var bodyEnded = false
        var done = false
        var collected: [SerializationError] = []

        /// The next record: from the chunks already read when they hold one, else after reading more.
        ///
        /// - Throws: a record's ``SerializationError`` (``RecordErrorPolicy/stop``), the collected errors at the
        ///   end (``RecordErrorPolicy/collect``), an error that ends the stream, the chunk sequence's own errors, or
        ///   `CancellationError`.
        public mutating func next() async throws -> Record? {
            while !done {
                while nextPending < pending.count {
                    let result = pending[nextPending]
                    nextPending += 1
                    switch result {
                    case .success(let record):
                        return record
                    case .failure(let failure):
                        let error = RecordStream.contextualised(failure, serializerID: serializerID, head: head)
                        switch policy {
                        case .stop:
                            finish()
                            throw error
                        case .skip:
                            await log.append(error)
                        case .collect:
                            collected.append(error)
                            await log.append(error)
                        }
                    }
                }
                pending.removeAll(keepingCapacity: true)
                nextPending = 0
                if bodyEnded {
                    finish()
                    if !collected.isEmpty { throw collectedError() }
                    return nil
                }
                do {
                    try Task.checkCancellation()
                } catch {
                    finish()
                    throw error
                }
                let chunk: Chunks.Element?
                do {
                    chunk = try await chunks.next()
                } catch {
                    finish()
                    throw error
                }
                do throws(SerializationError) {
                    if let chunk {
                        try reader.consume(chunk, into: &pending)
                    } else {
                        bodyEnded = true
                        try reader.finish(into: &pending)
                    }
                } catch {
                    // Records completed before the error are still handed out, then the error ends the stream.
                    // (A stream never feeds a reader again after it threw.)
                    pending.append(.failure(error))
                    bodyEnded = true
                }
            }
            return nil
        }

        /// Ends the iteration: later calls return `nil`.
        private mutating func finish() {
            done = true
            pending = []
        }

        /// One error for every record left out under ``RecordErrorPolicy/collect``.
        private func collectedError() -> SerializationError {
            let first = collected[0]
            let list = collected.map { error in
                "- " + (error.offset.map { "at offset \($0): " } ?? "") + error.message
            }
            return SerializationError(
                code: first.code,
                message: "\(collected.count) record\(collected.count == 1 ? "" : "s") of the stream could not be "
                    + "decoded and \(collected.count == 1 ? "was" : "were") left out:\n" + list.joined(separator: "\n"),
                mediaType: head.contentType, serializerID: serializerID, offset: first.offset,
                attempts: collected, response: head)
        }
    }
}

extension RecordStream: Sendable where Chunks: Sendable {}

/// The errors of the records a stream left out, shared by its iterations.
actor RecordErrorLog {
    private(set) var errors: [SerializationError] = []

    func append(_ error: SerializationError) { errors.append(error) }
}
