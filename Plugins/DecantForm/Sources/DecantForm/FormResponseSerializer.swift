public import DecantCore

/// Parses `application/x-www-form-urlencoded` bodies into ``FormData`` with the WHATWG urlencoded parser
/// (see ``FormParser``).
///
/// Its id is `form`. A `charset` parameter is ignored: the WHATWG URL Standard defines the format as UTF-8 only, so
/// `application/x-www-form-urlencoded; charset=iso-8859-1` is decoded as UTF-8 too (bytes that are not UTF-8 become
/// U+FFFD rather than failing). An empty body gives empty ``FormData``.
///
/// ```swift
/// var registry = SerializerRegistry.standard
/// registry.install(.form)
/// let form = try registry.serialize(response, as: FormData.self)
/// form["token"]   // the first "token" field
/// ```
public struct FormResponseSerializer: ResponseSerializer, FormatComponent {
    /// The `form` format.
    public static var format: MediaFormat { .form }

    /// The parser and its limits.
    public var parser: FormParser
    /// The media ranges accepted; the format's media ranges unless set.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    public init(
        options: FormParsingOptions = FormParsingOptions(),
        mediaRanges: [MediaRange] = MediaFormat.form.mediaRanges
    ) {
        self.parser = FormParser(options: options)
        self.mediaRanges = mediaRanges
    }

    /// Parses the body with ``FormParser``.
    ///
    /// - Throws: `SerializationError` as ``FormParser/parse(_:)-(Data)`` does (only `limitExceeded`), with the
    ///   response, media type and serializer id attached.
    public func serialize(_ response: Response) throws -> FormData {
        do {
            return try parser.parse(response.body)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// Empty ``FormData``: an empty body is a form without fields.
    public func emptyValue(for response: Response) throws -> FormData { FormData() }
}

extension MediaFormat {
    /// URL-encoded forms (WHATWG URL Standard): id `form`, `application/x-www-form-urlencoded`.
    public static let form = MediaFormat(
        id: "form", mediaRanges: ["application/x-www-form-urlencoded"],
        summary:
            "Reads and writes application/x-www-form-urlencoded bodies (WHATWG URL Standard, UTF-8) as ordered name-value pairs."
    )
}
