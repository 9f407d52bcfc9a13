/// A serializer that can also decode a body while it arrives, as a sequence of records: NDJSON lines, server-sent
/// events, the items of a CBOR sequence.
///
/// It is an ordinary ``ResponseSerializer`` (its whole-body `serialize(_:)` gives the same records, usually by
/// running ``RecordReader/readAll(_:)``), installed and resolved by media type like any other;
/// ``SerializerRegistry/records(_:body:as:options:statusCodes:maxErrorBodyBytes:)`` chooses it for a streamed body and
/// ``RecordStream`` drives its reader.
///
/// ```swift
/// struct LinesSerializer: StreamingResponseSerializer {
///     var mediaRanges: [MediaRange] { [MediaRange("text/x-lines")] }
///     var id: SerializerID { "acme.lines" }
///     func makeRecordReader(for head: Response, options: StreamOptions) throws(SerializationError) -> LineReader {
///         LineReader(maxRecordBytes: options.maxRecordBytes)
///     }
///     func serialize(_ response: Response) throws -> [String] {
///         try makeRecordReader(for: response, options: StreamOptions()).readAll(response.body).map { try $0.get() }
///     }
/// }
/// ```
public protocol StreamingResponseSerializer<Record>: ResponseSerializer {
    /// The type of the records.
    associatedtype Record: Sendable
    /// The incremental reader.
    associatedtype Reader: RecordReader where Reader.Record == Record

    /// A fresh reader for one response, whose status and headers are in `head` (its body is not used: the bytes
    /// come through the reader).
    ///
    /// - Throws: ``SerializationError`` when the head rules the stream out (an unknown charset, say).
    func makeRecordReader(for head: Response, options: StreamOptions) throws(SerializationError) -> Reader
}
