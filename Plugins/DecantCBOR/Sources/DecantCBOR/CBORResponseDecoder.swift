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

    /// `true`: CBOR decodes at a JSON Pointer, on the tape of ``CBORParser/read(_:)``.
    public var decodesAtPointer: Bool { true }

    /// Decodes a `T` from the item at `pointer` in the body of `response`: the body is checked onto a tape
    /// (``CBORParser/read(_:)``), the tape is walked to the item (``CBORItem/item(at:)``), and only that item becomes
    /// a ``CBORValue`` and is decoded. For `application/cbor-seq` the first token indexes the items. A decoding
    /// error's coding path starts with the pointer's tokens.
    ///
    /// - Throws: `SerializationError`: the parser's codes, `pointerNotFound`, or `decodingFailed`, with the
    ///   response, its media type and the id `cbor` attached.
    public func decode<T: Decodable>(_ type: T.Type, from response: Response, at pointer: JSONPointer) throws -> T {
        guard !pointer.isRoot else { return try decode(type, from: response) }
        do {
            var path: [any CodingKey] = []
            let item = try item(in: response, at: pointer, path: &path)
            return try decoder.decode(type, from: item.value, codingPath: path)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// The ``CBORValue`` at `pointer` in the body of `response`, made from that item only.
    ///
    /// - Throws: `SerializationError`: the parser's codes or `pointerNotFound`, with the response attached.
    public func value(from response: Response, at pointer: JSONPointer) throws -> any Sendable {
        do {
            let parser = CBORParser(options: decoder.parsingOptions)
            if pointer.isRoot && CBORResponseSerializer.isSequence(response.contentType) {
                return CBORValue.array(try parser.parseSequence(response.body))
            }
            var path: [any CodingKey] = []
            return try item(in: response, at: pointer, path: &path).value
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// The item at `pointer` (not the root of a sequence).
    private func item(
        in response: Response, at pointer: JSONPointer, path: inout [any CodingKey]
    ) throws(SerializationError) -> CBORItem {
        let parser = CBORParser(options: decoder.parsingOptions)
        if CBORResponseSerializer.isSequence(response.contentType) {
            return try CBORItem.resolve(
                pointer, from: nil, sequence: try parser.readSequence(response.body), path: &path)
        }
        return try CBORItem.resolve(pointer, from: try parser.read(response.body), sequence: nil, path: &path)
    }
}
