public import DecantCore

/// Reads WARC files (ISO 28500: WARC/1.0 and WARC/1.1, `application/warc`), uncompressed or with each record a gzip
/// member, into the HTTP responses they hold: ``ArchivedResponse`` records, whole or while the archive arrives.
///
/// Its id is `warc`. As a ``StreamingResponseSerializer`` it hands out each response as soon as its record is
/// complete (``SerializerRegistry/records(_:body:as:options:statusCodes:maxErrorBodyBytes:)``), holding at most one
/// record (``StreamOptions/maxRecordBytes``); as an ordinary serializer it makes `ArchivedResponses`, the same
/// responses. ``WARCRecordReader`` says what is read, what is skipped and why, and the limits. Each response is
/// decoded afterwards through a registry, as the parts of a multipart body are:
///
/// ```swift
/// let registry = SerializerRegistry.standard.installing(.warc)
/// let head = Response(status: 200, headers: ["Content-Type": "application/warc"])
/// for try await archived in try await registry.records(head, body: chunks, as: ArchivedResponse.self) {
///     let value = try registry.serialize(try archived.response.get())
///     print(archived.index, archived.targetURI ?? "-", value.serializerID)
/// }
/// ```
public struct WARCResponseSerializer: StreamingResponseSerializer, FormatComponent {
    /// The `warc` format.
    public static var format: MediaFormat { .warc }

    /// The largest record of a whole body (a stream takes its limit from its ``StreamOptions``).
    public var maxRecordBytes: Int
    /// The largest head of a record.
    public var maxHeadBytes: Int
    /// The media ranges accepted; the format's media ranges unless set.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    public init(
        maxRecordBytes: Int = StreamOptions.defaultMaxRecordBytes,
        maxHeadBytes: Int = WARCRecordReader.defaultMaxHeadBytes,
        mediaRanges: [MediaRange] = MediaFormat.warc.mediaRanges
    ) {
        self.maxRecordBytes = maxRecordBytes
        self.maxHeadBytes = maxHeadBytes
        self.mediaRanges = mediaRanges
    }

    /// A reader for one streamed archive, holding at most `options.maxRecordBytes` of a record.
    public func makeRecordReader(for head: Response, options: StreamOptions) -> WARCRecordReader {
        WARCRecordReader(maxRecordBytes: options.maxRecordBytes, maxHeadBytes: maxHeadBytes)
    }

    /// Every response of the archive, read by ``WARCRecordReader``.
    ///
    /// - Throws: `SerializationError` when the archive cannot be read (see ``WARCRecordReader``), with the response,
    ///   media type and serializer id attached. A response record that cannot be read is not an error here: it is
    ///   an ``ArchivedResponse`` whose ``ArchivedResponse/response`` is the failure.
    public func serialize(_ response: Response) throws -> ArchivedResponses {
        let reader = WARCRecordReader(maxRecordBytes: maxRecordBytes, maxHeadBytes: maxHeadBytes)
        do {
            return ArchivedResponses(
                responses: try reader.readAll(response.body).map { result throws(SerializationError) in
                    try result.get()
                })
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// No responses: an empty archive holds no records.
    public func emptyValue(for response: Response) throws -> ArchivedResponses { ArchivedResponses(responses: []) }
}

extension MediaFormat {
    /// WARC files (ISO 28500, WARC/1.0 and WARC/1.1): id `warc`, `application/warc`.
    public static let warc = MediaFormat(
        id: "warc", mediaRanges: ["application/warc"],
        summary: "Reads WARC web archives (ISO 28500), plain or gzip-compressed per record, into the HTTP responses "
            + "they hold, whole or streamed.")
}
