public import DecantCore

/// Decodes `application/cbor` bodies (RFC 8949) into a ``CBORValue``, and `application/cbor-seq` bodies (RFC 8742)
/// into an array of their items, with ``CBORParser``.
///
/// Its id is `cbor`. It also accepts the structured syntax suffixes `+cbor` and `+cbor-seq`. An empty
/// `application/cbor-seq` body is an empty sequence (an empty array); an empty `application/cbor` body has no value.
///
/// ```swift
/// var registry = SerializerRegistry.standard
/// registry.install(.cbor)
/// let value = try registry.serialize(response, as: CBORValue.self)
/// ```
public struct CBORResponseSerializer: ResponseSerializer, FormatComponent {
    /// The `cbor` format.
    public static var format: MediaFormat { .cbor }

    /// The parser, its limits and duplicate-key policy.
    public var parser: CBORParser
    /// The media ranges accepted; the format's unless set.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    public init(
        options: CBORParsingOptions = CBORParsingOptions(),
        mediaRanges: [MediaRange] = MediaFormat.cbor.mediaRanges
    ) {
        self.parser = CBORParser(options: options)
        self.mediaRanges = mediaRanges
    }

    /// Whether `mediaType` names a CBOR sequence: `application/cbor-seq` or a `+cbor-seq` suffix.
    public static func isSequence(_ mediaType: MediaType?) -> Bool {
        guard let mediaType else { return false }
        return mediaType.essence == "application/cbor-seq" || mediaType.suffix == "cbor-seq"
    }

    /// Decodes the body: one item, or for a sequence media type an ``CBORValue/array(_:)`` of every item.
    ///
    /// - Throws: `SerializationError` as ``CBORParser/parse(_:)`` does (`invalidBody` with the byte offset, or
    ///   `limitExceeded`), with the response, media type and serializer id attached.
    public func serialize(_ response: Response) throws -> CBORValue {
        do {
            if Self.isSequence(response.contentType) {
                return .array(try parser.parseSequence(response.body))
            }
            return try parser.parse(response.body)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// An empty array for a sequence media type (a sequence of no items); otherwise an `emptyBody` error, since a
    /// CBOR document holds exactly one item.
    public func emptyValue(for response: Response) throws -> CBORValue {
        if Self.isSequence(response.contentType) { return .array([]) }
        throw SerializationError(
            code: .emptyBody,
            message: "The application/cbor body is empty, but a CBOR document holds exactly one data item.",
            mediaType: response.contentType, serializerID: id, response: response)
    }
}

extension MediaFormat {
    /// CBOR (RFC 8949) and CBOR sequences (RFC 8742): id `cbor`; `application/cbor`, `application/cbor-seq`,
    /// `*/*+cbor` and `*/*+cbor-seq`.
    public static let cbor = MediaFormat(
        id: "cbor", mediaRanges: ["application/cbor", "application/cbor-seq", "*/*+cbor", "*/*+cbor-seq"],
        summary: "Decodes CBOR (RFC 8949) and CBOR sequences (RFC 8742) into CBOR values, with limits on depth and "
            + "items.")
}
