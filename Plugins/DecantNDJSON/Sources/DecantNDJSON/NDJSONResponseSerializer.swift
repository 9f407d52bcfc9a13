public import DecantCore
public import DecantJSON

/// Decodes newline-delimited JSON (`application/x-ndjson`, `application/jsonl`) and JSON text sequences
/// (`application/json-seq`, RFC 7464) into JSON records, whole or while the body arrives.
///
/// Its id is `ndjson`. As a ``StreamingResponseSerializer`` it hands out each ``JSONValue`` record as soon as it is
/// complete (``SerializerRegistry/records(_:body:as:options:statusCodes:maxErrorBodyBytes:)``); as an ordinary
/// serializer it makes ``JSONRecords``, the same records, and fails on the first bad record. Each record is parsed by
/// DecantJSON's ``JSONParser`` (no second JSON parser) with its limits.
///
/// ```swift
/// let registry = SerializerRegistry.standard.installing(.ndjson)
/// let stream = try await registry.records(head, body: chunks, as: JSONValue.self)
/// for try await record in stream { print(record["id"] ?? nil) }
/// ```
public struct NDJSONResponseSerializer: StreamingResponseSerializer, FormatComponent {
    /// The `ndjson` format.
    public static var format: MediaFormat { .ndjson }

    /// The parser of each record, with its limits.
    public var parser: JSONParser
    /// The largest record of a whole body (a stream takes its limit from its ``StreamOptions``).
    public var maxRecordBytes: Int
    /// The media ranges accepted; the format's media ranges unless set.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    public init(
        parser: JSONParser = JSONParser(), maxRecordBytes: Int = StreamOptions.defaultMaxRecordBytes,
        mediaRanges: [MediaRange] = MediaFormat.ndjson.mediaRanges
    ) {
        self.parser = parser
        self.maxRecordBytes = maxRecordBytes
        self.mediaRanges = mediaRanges
    }

    /// `true`: JSON texts allow whitespace around them, and a sequence of none is empty, so a body of only whitespace
    /// is an empty body.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { true }

    /// The framing of a media type: JSON text sequences for `application/json-seq` and `+json-seq`, lines otherwise.
    public static func framing(of mediaType: MediaType?) -> NDJSONRecordReader.Framing {
        guard let mediaType else { return .lines }
        return mediaType.essence == "application/json-seq" || mediaType.suffix == "json-seq" ? .jsonSequence : .lines
    }

    /// A reader for one streamed body, framed by its media type.
    public func makeRecordReader(for head: Response, options: StreamOptions) -> NDJSONRecordReader {
        NDJSONRecordReader(
            framing: Self.framing(of: head.contentType), parser: parser, maxRecordBytes: options.maxRecordBytes)
    }

    /// Every record of the body.
    ///
    /// - Throws: `SerializationError` of the first record that does not decode (with its offset in the body), with
    ///   the response, media type and serializer id attached.
    public func serialize(_ response: Response) throws -> JSONRecords {
        let reader = NDJSONRecordReader(
            framing: Self.framing(of: response.contentType), parser: parser, maxRecordBytes: maxRecordBytes)
        do {
            return JSONRecords(
                records: try reader.readAll(response.body).map { result throws(SerializationError) in
                    try result.get()
                })
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// No records: an empty stream is a stream of nothing.
    public func emptyValue(for response: Response) throws -> JSONRecords { JSONRecords(records: []) }
}

extension MediaFormat {
    /// Newline-delimited JSON and JSON text sequences (RFC 7464): id `ndjson`.
    public static let ndjson = MediaFormat(
        id: "ndjson",
        mediaRanges: [
            "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines",
            "application/jsonlines", "application/json-seq", "*/*+json-seq",
        ],
        summary:
            "Decodes newline-delimited JSON and JSON text sequences (RFC 7464) into JSON records, whole or streamed.")
}
