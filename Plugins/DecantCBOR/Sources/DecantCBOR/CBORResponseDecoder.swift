public import DecantCore

/// Decodes `Decodable` values from CBOR responses with a ``CBORDecoder``: the `cbor` format's `ResponseDecoder`,
/// which registries use for `SerializerRegistry.decode(_:from:options:sniffing:statusCodes:emptyBodyPolicy:)`.
///
/// The body is one data item; for an `application/cbor-seq` body the items are decoded as an array.
public struct CBORResponseDecoder: ResponseDecoder, FormatComponent {
    /// The `cbor` format.
    public static var format: MediaFormat { .cbor }

    /// The decoder and its parsing options.
    public var decoder: CBORDecoder
    /// The media ranges accepted; the format's media ranges unless set.
    public var mediaRanges: [MediaRange]

    /// Creates a response decoder.
    public init(
        decoder: CBORDecoder = CBORDecoder(),
        mediaRanges: [MediaRange] = MediaFormat.cbor.mediaRanges
    ) {
        self.decoder = decoder
        self.mediaRanges = mediaRanges
    }

    /// Decodes a `T` from the body of `response`.
    ///
    /// - Throws: `SerializationError` as ``CBORParser/parse(_:)`` and ``CBORDecoder/decode(_:from:)-(_,CBORValue)``
    ///   do, with the response, its media type and the id `cbor` attached.
    public func decode<T: Decodable>(_ type: T.Type, from response: Response) throws -> T {
        do {
            let parser = CBORParser(options: decoder.parsingOptions)
            let value: CBORValue =
                CBORResponseSerializer.isSequence(response.contentType)
                ? .array(try parser.parseSequence(response.body)) : try parser.parse(response.body)
            return try decoder.decode(type, from: value)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}
