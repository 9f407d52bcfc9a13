public import DecantJSON

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension AsyncSequence where Element == JSONValue {
    /// Each record as the bytes `writer` frames it, one chunk per record, as the records arrive: a body a server can
    /// send record by record.
    ///
    /// ```swift
    /// let chunks = records.encodedChunks(using: NDJSONRecordWriter(framing: .lines))
    /// for await chunk in chunks { try await connection.send(chunk) }
    /// ```
    public func encodedChunks(using writer: NDJSONRecordWriter = NDJSONRecordWriter()) -> AsyncMapSequence<Self, Data> {
        map { record in writer.write(record) }
    }
}

extension AsyncSequence where Element: Encodable & Sendable {
    /// Each value encoded by `writer` (``NDJSONRecordWriter/write(encodable:)``), one chunk per record, as the values
    /// arrive. A value that does not encode ends the sequence with its `SerializationError`.
    ///
    /// ```swift
    /// for try await chunk in events.encodedChunks(using: NDJSONRecordWriter(for: "application/json-seq")) {
    ///     try await connection.send(chunk)
    /// }
    /// ```
    public func encodedChunks(
        using writer: NDJSONRecordWriter = NDJSONRecordWriter()
    ) -> AsyncThrowingMapSequence<Self, Data> {
        map { value in try writer.write(encodable: value) }
    }
}
