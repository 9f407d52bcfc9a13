public import DecantCore

/// Decodes `Decodable` values from JSON responses with a ``JSONValueDecoder``: the `json` format's
/// `ResponseDecoder`.
///
/// Registries use it for `SerializerRegistry.decode(_:from:options:sniffing:statusCodes:emptyBodyPolicy:)`, with the
/// parsing options of the registry's configuration and `JSONDecoder`'s default strategies unless `DecodingOptions`
/// (of the call, the format's installation or the registry) set others: it reads every one of them. A chain built in
/// code chooses them on the decoder:
///
/// ```swift
/// var decoder = JSONValueDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// decoder.dateDecodingStrategy = .iso8601
/// let chain = ResponseChain(DecodableResponseSerializer<User>(decoder: JSONResponseDecoder(decoder: decoder)))
/// let user = try chain.serialize(response)
/// ```
///
/// The body's encoding (UTF-8, UTF-16 or UTF-32, with or without a byte order mark) is detected as ``JSONParser``
/// detects it; the `charset` parameter is not consulted (RFC 8259 §11 defines none).
public struct JSONResponseDecoder: ResponseDecoder, FormatComponent {
    /// The `json` format.
    public static var format: MediaFormat { .json }

    /// The decoder: strategies and parsing options.
    public var decoder: JSONValueDecoder
    /// The media ranges accepted; the format's unless set.
    public var mediaRanges: [MediaRange]

    /// Creates a response decoder.
    public init(
        decoder: JSONValueDecoder = JSONValueDecoder(),
        mediaRanges: [MediaRange] = MediaFormat.json.mediaRanges
    ) {
        self.decoder = decoder
        self.mediaRanges = mediaRanges
    }

    /// A copy whose decoder has `options` applied (``JSONValueDecoder/apply(_:)``): every strategy and `userInfo`.
    public func applying(_ options: DecodingOptions) -> any ResponseDecoder {
        var copy = self
        copy.decoder.apply(options)
        return copy
    }

    /// `true`: JSON allows whitespace around its value (RFC 8259 §2), so a body of only whitespace is an empty body.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { true }

    /// Decodes a `T` from the body of `response`.
    ///
    /// - Throws: `SerializationError` as ``JSONValueDecoder/decode(_:from:)-(_,Data)`` does, with the response,
    ///   its media type and the id `json` attached.
    public func decode<T: Decodable>(_ type: T.Type, from response: Response) throws -> T {
        do {
            return try decoder.decode(type, from: response.body)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// `true`: JSON decodes at a JSON Pointer, on its tape.
    public var decodesAtPointer: Bool { true }

    /// Decodes a `T` from the value at `pointer` in the body of `response`
    /// (``JSONValueDecoder/decode(_:from:at:)-(_,Data,_)``): the tape is walked to the value and only it is decoded.
    ///
    /// - Throws: `SerializationError`: `pointerNotFound`, `decodingFailed` (coding path from the pointer's tokens)
    ///   or the parser's codes, with the response, its media type and the id `json` attached.
    public func decode<T: Decodable>(_ type: T.Type, from response: Response, at pointer: JSONPointer) throws -> T {
        do {
            return try decoder.decode(type, from: response.body, at: pointer)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// The ``JSONValue`` at `pointer` in the body of `response` (``JSONValue/value(at:)``), sharing the parsed
    /// document's storage.
    ///
    /// - Throws: `SerializationError`: `pointerNotFound` or the parser's codes, with the response attached.
    public func value(from response: Response, at pointer: JSONPointer) throws -> any Sendable {
        do {
            return try JSONParser(options: decoder.parsingOptions).parse(response.body).value(at: pointer)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}
