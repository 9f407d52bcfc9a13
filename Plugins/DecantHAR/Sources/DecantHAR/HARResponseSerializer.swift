public import DecantCore
import DecantJSON

/// Decodes HAR 1.2 files (HTTP Archive, the JSON that browsers' developer tools export) into the responses they
/// hold, whole or while the file arrives.
///
/// Its id is `har`, for `application/har+json` (HAR has no registered media type; this one is what tools use). As a
/// `StreamingResponseSerializer` it hands out an `ArchivedResponse` for each element of `log.entries` as soon as the
/// entry is complete (``HARRecordReader``); as an ordinary serializer it makes `ArchivedResponses`, the same records.
/// Each response is then decoded through a registry like any other:
///
/// ```swift
/// let registry = SerializerRegistry.standard.installing(.har)
/// for try await record in try await registry.records(head, body: chunks, as: ArchivedResponse.self) {
///     let value = try record.response.flatMap { try registry.serialize($0) }
/// }
/// ```
///
/// An entry becomes a response this way:
/// - `targetURI` and the response's `url` are `request.url` (the URL when it parses), `requestMethod` is
///   `request.method`, `status` is `response.status`, `reasonPhrase` is `response.statusText` (none when empty), the
///   header fields are `response.headers` in order.
/// - The body is `response.content.text`: decoded from base64 when `content.encoding` is `base64`, else the text
///   written as UTF-8, in which case the `charset` parameter of the Content-Type, if any, becomes `utf-8`. The
///   Content-Type is the headers', else `content.mimeType` when it is a media type (not Chrome's `x-unknown`).
/// - HAR bodies are already content-decoded: `Content-Encoding` fields are removed and `Content-Length` fields set to
///   the body's size.
/// - When `content.text` is absent but `content.size` is above 0, or the body is shorter than `content.size`, the
///   record's truncation is `length` with the kept and stated sizes.
/// - An entry that is not an object, or has no `response.status`, is a record whose `response` is a
///   `malformedMessage` failure naming the entry and the member; members that tools add (`_initiator`, `cache`,
///   `timings`, ...) are ignored.
public struct HARResponseSerializer: StreamingResponseSerializer, FormatComponent {
    /// The `har` format.
    public static var format: MediaFormat { .har }

    /// The largest entry of a whole body, in bytes (a stream takes its limit from its `StreamOptions`).
    public var maxRecordBytes: Int
    /// The deepest nesting of objects and arrays in the file (``HARRecordReader/defaultMaxDepth`` by default).
    public var maxDepth: Int
    /// The media ranges accepted; the format's media ranges unless set.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    public init(
        maxRecordBytes: Int = StreamOptions.defaultMaxRecordBytes, maxDepth: Int = HARRecordReader.defaultMaxDepth,
        mediaRanges: [MediaRange] = MediaFormat.har.mediaRanges
    ) {
        self.maxRecordBytes = maxRecordBytes
        self.maxDepth = maxDepth
        self.mediaRanges = mediaRanges
    }

    /// A reader for one streamed file.
    public func makeRecordReader(for head: Response, options: StreamOptions) -> HARRecordReader {
        HARRecordReader(maxRecordBytes: options.maxRecordBytes, maxDepth: maxDepth)
    }

    /// Every response of the file, read by ``HARRecordReader`` over the whole body.
    ///
    /// - Throws: `SerializationError` when the file is not a HAR file, nests too deep or is cut short (see
    ///   ``HARRecordReader``), with the response, media type and serializer id attached. An entry that cannot be read
    ///   does not throw: its record's `response` is the failure.
    public func serialize(_ response: Response) throws -> ArchivedResponses {
        let reader = HARRecordReader(maxRecordBytes: maxRecordBytes, maxDepth: maxDepth)
        do {
            return ArchivedResponses(
                responses: try reader.readAll(response.body).map { result throws(SerializationError) in
                    try result.get()
                })
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}

extension MediaFormat {
    /// HAR 1.2, the HTTP Archive format: id `har`, for `application/har+json`.
    public static let har = MediaFormat(
        id: "har", mediaRanges: ["application/har+json"],
        summary: "Decodes HAR 1.2 files (HTTP Archive) into the responses they hold, whole or streamed.")
}
