#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension SerializerRegistry {
    /// The records of a body that is still arriving, decoded by the streaming serializer the media type resolves to.
    ///
    /// Resolution is the one of ``resolve(_:sniffing:)`` (the header's media type; a stream cannot be sniffed before
    /// it arrives): the first candidate that is a ``StreamingResponseSerializer`` of `Record`s decodes the stream;
    /// with `any Sendable` as `Record`, the first streaming candidate, whatever its records.
    /// The status is validated first, before any record: with a status outside `statusCodes`, the (bounded) body is
    /// read and decoded into the error exactly as ``serialize(_:sniffing:statusCodes:emptyBodyPolicy:)`` does, so a
    /// problem document travels in ``SerializationError/errorValue``.
    ///
    /// ```swift
    /// let stream = try await registry.records(head, body: chunks, as: JSONValue.self)
    /// for try await record in stream { print(record) }
    /// ```
    ///
    /// - Parameters:
    ///   - head: The response's status and headers (its body is not used).
    ///   - chunks: The body as it arrives.
    ///   - type: The record type, such as `JSONValue`.
    ///   - options: The error policy and the record size limit.
    ///   - statusCodes: The acceptable statuses.
    ///   - maxErrorBodyBytes: How much of an unacceptable-status body is read to decode it into the error.
    /// - Throws: ``SerializationError``: ``SerializationError/Code/unacceptableStatusCode`` (with the error body),
    ///   ``SerializationError/Code/noSerializer`` when no streaming serializer accepts the media type,
    ///   ``SerializationError/Code/unexpectedOutputType`` when those that do make other records,
    ///   ``SerializationError/Code/unsupportedFeature`` for a `Content-Encoding` (decode it before: `URLSession`
    ///   does); the chunk sequence's own errors while an error body is read.
    public func records<Chunks: AsyncSequence, Record: Sendable>(
        _ head: Response, body chunks: Chunks, as type: Record.Type = Record.self,
        options: StreamOptions = StreamOptions(), statusCodes: StatusCodes = .success,
        maxErrorBodyBytes: Int = BodySizeLimit.default.maxBytes
    ) async throws -> RecordStream<Chunks, Record> where Chunks.Element: ContiguousBytes {
        var head = head
        head.body = Data()
        guard statusCodes.contains(head.status) else {
            throw try await statusError(head, chunks: chunks, statusCodes: statusCodes, limit: maxErrorBodyBytes)
        }
        let codings = head.headers.contentCodings
        if !codings.isEmpty {
            throw SerializationError(
                code: .unsupportedFeature,
                message: "The stream is sent with Content-Encoding \(codings.joined(separator: ", ")), which "
                    + "streams are not decoded from yet. Let the client decode it (URLSession does by default), or "
                    + "read the whole body and use serialize(_:), which decodes gzip and deflate.",
                mediaType: head.contentType, response: head)
        }
        let resolution = resolve(head)
        var otherRecords: [String] = []
        for candidate in resolution.candidates {
            guard let serializer = entry(for: candidate.id)?.defaultSerializer?.base as? any StreamingResponseSerializer
            else { continue }
            if let stream = try stream(of: serializer, head: head, chunks: chunks, options: options, as: type) {
                return stream
            }
            otherRecords.append("'\(serializer.id)' (records of type \(recordTypeName(of: serializer)))")
        }
        let mediaType = head.contentType.map { "\($0)" } ?? "a response without a Content-Type"
        if !otherRecords.isEmpty {
            throw SerializationError(
                code: .unexpectedOutputType,
                message: "The streaming serializers for \(mediaType) make other records than \(Record.self): "
                    + otherRecords.joined(separator: ", ") + ". Ask for their record type.",
                mediaType: head.contentType, response: head)
        }
        let wholeBody = resolution.candidates.map { "'\($0.id)'" }
        throw SerializationError(
            code: .noSerializer,
            message: "No streaming serializer accepts \(mediaType)"
                + (wholeBody.isEmpty
                    ? ". "
                    : " (\(wholeBody.joined(separator: ", ")) decode\(wholeBody.count == 1 ? "s" : "") whole "
                        + "bodies only). ")
                + "Install a module that streams this type, or read the whole body and use serialize(_:).",
            mediaType: head.contentType, response: head)
    }

    /// The stream of `serializer` when its records are `Record`s.
    private func stream<Serializer: StreamingResponseSerializer, Chunks: AsyncSequence, Record: Sendable>(
        of serializer: Serializer, head: Response, chunks: Chunks, options: StreamOptions, as type: Record.Type
    ) throws(SerializationError) -> RecordStream<Chunks, Record>? where Chunks.Element: ContiguousBytes {
        let same = ObjectIdentifier(Serializer.Record.self) == ObjectIdentifier(Record.self)
        let erased = ObjectIdentifier(Record.self) == ObjectIdentifier((any Sendable).self)
        guard same || erased else { return nil }
        let reader: Serializer.Reader
        do {
            reader = try serializer.makeRecordReader(for: head, options: options)
        } catch {
            throw RecordStream<Chunks, Record>.contextualised(
                error, serializerID: serializer.id, head: head)
        }
        return RecordStream(head: head, serializerID: serializer.id, chunks: chunks, options: options) {
            same ? ErasedRecordReader(sameType: reader) : ErasedRecordReader(erasing: reader)
        }
    }

    private func recordTypeName<Serializer: StreamingResponseSerializer>(of serializer: Serializer) -> String {
        "\(Serializer.Record.self)"
    }

    /// The error of an unacceptable status, its body read (up to `limit` bytes) and decoded into it.
    private func statusError<Chunks: AsyncSequence>(
        _ head: Response, chunks: Chunks, statusCodes: StatusCodes, limit: Int
    ) async throws -> SerializationError where Chunks.Element: ContiguousBytes {
        var body = Data()
        var complete = true
        for try await chunk in chunks {
            chunk.withUnsafeBytes { body.append(contentsOf: $0.prefix(max(0, limit - body.count))) }
            if body.count >= limit {
                complete = false
                break
            }
        }
        var response = head
        response.body = body
        guard complete else {
            return SerializationError(
                code: .unacceptableStatusCode,
                message: "The status \(head.status) is not acceptable (\(statusCodes)); its body was longer than "
                    + "\(limit) bytes, so only its beginning is kept and it was not decoded. Raise "
                    + "maxErrorBodyBytes to decode longer error bodies.",
                mediaType: head.contentType, response: response)
        }
        do {
            _ = try serialize(response, statusCodes: statusCodes)
        } catch {
            return error
        }
        return SerializationError(
            code: .unacceptableStatusCode,
            message: "The status \(head.status) is not acceptable (\(statusCodes)).", mediaType: head.contentType,
            response: response)
    }
}
