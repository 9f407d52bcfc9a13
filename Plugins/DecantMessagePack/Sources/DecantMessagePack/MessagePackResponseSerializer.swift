public import DecantCore

/// Parses MessagePack bodies (`application/msgpack`, `application/x-msgpack`, `application/vnd.msgpack`) into
/// ``MessagePackValue`` with ``MessagePackParser``.
///
/// Its id is `msgpack`. MessagePack is binary: a `charset` parameter is ignored. An empty body is not a MessagePack
/// value, so it gets the registry's empty-body policy (`emptyBody` by default).
///
/// ```swift
/// let registry = SerializerRegistry.standard.installing(.msgpack)
/// let value = try registry.serialize(response, as: MessagePackValue.self)
/// value["name"]?.stringValue
/// ```
public struct MessagePackResponseSerializer: ResponseSerializer, FormatComponent {
    /// The `msgpack` format.
    public static var format: MediaFormat { .msgpack }

    /// The parser and its limits.
    public var parser: MessagePackParser
    /// The media ranges accepted; the format's media ranges unless set.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    public init(
        options: MessagePackParsingOptions = MessagePackParsingOptions(),
        mediaRanges: [MediaRange] = MediaFormat.msgpack.mediaRanges
    ) {
        self.parser = MessagePackParser(options: options)
        self.mediaRanges = mediaRanges
    }

    /// Parses the body with ``MessagePackParser``.
    ///
    /// - Throws: `SerializationError` as ``MessagePackParser/parse(_:)`` does, with the response, media type and
    ///   serializer id attached.
    public func serialize(_ response: Response) throws -> MessagePackValue {
        do {
            return try parser.parse(response.body)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}

/// Decodes `Decodable` values from MessagePack responses with a ``MessagePackDecoder``: the `msgpack` format's
/// `ResponseDecoder`, used by `SerializerRegistry.decode(_:from:)`.
public struct MessagePackResponseDecoder: ResponseDecoder, FormatComponent {
    /// The `msgpack` format.
    public static var format: MediaFormat { .msgpack }

    /// The decoder and its parsing options.
    public var decoder: MessagePackDecoder
    /// The media ranges accepted; the format's media ranges unless set.
    public var mediaRanges: [MediaRange]

    /// Creates a response decoder.
    public init(
        decoder: MessagePackDecoder = MessagePackDecoder(),
        mediaRanges: [MediaRange] = MediaFormat.msgpack.mediaRanges
    ) {
        self.decoder = decoder
        self.mediaRanges = mediaRanges
    }

    /// Decodes a `T` from the body of `response`.
    ///
    /// - Throws: `SerializationError`: the parser's codes, or `decodingFailed` with the coding path.
    public func decode<T: Decodable>(_ type: T.Type, from response: Response) throws -> T {
        do {
            return try decoder.decode(type, from: response.body)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// `true`: MessagePack decodes at a JSON Pointer, on the tape of ``MessagePackParser/read(_:)``.
    public var decodesAtPointer: Bool { true }

    /// Decodes a `T` from the item at `pointer` in the body of `response`: the body is checked onto a tape
    /// (``MessagePackParser/read(_:)``), the tape is walked to the item (``MessagePackItem/item(at:)``), and only
    /// that item becomes a ``MessagePackValue`` and is decoded. A decoding error's coding path starts with the
    /// pointer's tokens.
    ///
    /// - Throws: `SerializationError`: the parser's codes, `pointerNotFound`, or `decodingFailed`, with the
    ///   response, its media type and the id `msgpack` attached.
    public func decode<T: Decodable>(_ type: T.Type, from response: Response, at pointer: JSONPointer) throws -> T {
        do {
            var path: [any CodingKey] = []
            let item = try MessagePackParser(options: decoder.parsingOptions).read(response.body)
                .resolve(pointer, path: &path)
            return try decoder.decode(type, from: item.value, codingPath: path)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// The ``MessagePackValue`` at `pointer` in the body of `response`, made from that item only.
    ///
    /// - Throws: `SerializationError`: the parser's codes or `pointerNotFound`, with the response attached.
    public func value(from response: Response, at pointer: JSONPointer) throws -> any Sendable {
        do {
            return try MessagePackParser(options: decoder.parsingOptions).read(response.body).item(at: pointer).value
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}

extension MediaFormat {
    /// MessagePack: id `msgpack`; `application/msgpack`, `application/x-msgpack` and `application/vnd.msgpack`.
    public static let msgpack = MediaFormat(
        id: "msgpack", mediaRanges: ["application/msgpack", "application/x-msgpack", "application/vnd.msgpack"],
        summary: "Parses MessagePack bodies (every format family, timestamp extension) into MessagePackValue.")
}
