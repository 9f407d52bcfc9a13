/// Decodes `Decodable` types straight from a response body in one format, such as JSON or property lists.
///
/// A format module provides one (for example a JSON decoder with `JSONDecoder`'s strategies) and returns it from its
/// factory's ``SerializerFactory/makeDecoder(options:)``, so that
/// ``SerializerRegistry/decode(_:from:options:sniffing:statusCodes:emptyBodyPolicy:)`` can choose it by media type.
public protocol ResponseDecoder: Sendable {
    /// The id of the format, such as `json`, used in errors and traces: its factory's ``SerializerFactory/id``.
    var id: SerializerID { get }
    /// The media ranges the decoder accepts.
    var mediaRanges: [MediaRange] { get }
    /// Decodes a `T` from the body of `response`.
    ///
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/decodingFailed`` (with the coding path
    ///   and, where known, the byte offset) or the format's parse error codes.
    func decode<T: Decodable>(_ type: T.Type, from response: Response) throws -> T

    /// Whether a body of only whitespace counts as empty for this format; see
    /// ``ResponseSerializer/countsWhitespaceAsEmpty(for:)``. Defaults to `false`.
    func countsWhitespaceAsEmpty(for response: Response) -> Bool

    /// This decoder with `options` applied where they apply to the format: every strategy `options` sets replaces
    /// the decoder's own, its `userInfo` is added, and what the format has no use for is ignored (see
    /// ``DecodingOptions``). The registry calls it with the options of the registry, the format and the call merged.
    /// Defaults to `self`: a format whose decoding has no such choices.
    func applying(_ options: DecodingOptions) -> any ResponseDecoder

    /// Whether this decoder decodes at a ``JSONPointer`` (``decode(_:from:at:)`` and ``value(from:at:)``).
    /// Defaults to `false`; a format that implements them says `true`, once, here.
    var decodesAtPointer: Bool { get }

    /// Decodes a `T` from the value at `pointer` in the body of `response`, without decoding the rest.
    ///
    /// A format whose documents are read onto a tape walks the tape to the pointed value (skipping what is beside
    /// it) and decodes only that value, with the decoder's strategies; the coding path of a decoding error starts
    /// with the pointer's tokens. The default decodes the whole body for the root pointer and otherwise throws
    /// ``SerializationError/Code/unsupportedFeature``.
    ///
    /// - Throws: ``SerializationError``: ``SerializationError/Code/pointerNotFound`` (from
    ///   ``JSONPointer/resolve(from:step:)``) when the body has no value there, and the errors of
    ///   ``decode(_:from:)``.
    func decode<T: Decodable>(_ type: T.Type, from response: Response, at pointer: JSONPointer) throws -> T

    /// The format's own value (``JSONPointer`` walks `JSONValue`, `CBORValue`, ...) at `pointer` in the body of
    /// `response`: what the format's serializer would give for the whole body, for the pointed part only.
    ///
    /// The default throws ``SerializationError/Code/unsupportedFeature``.
    ///
    /// - Throws: ``SerializationError``: ``SerializationError/Code/pointerNotFound`` and the parse errors.
    func value(from response: Response, at pointer: JSONPointer) throws -> any Sendable
}

extension ResponseDecoder {
    /// `false`: whitespace is content unless the format says otherwise.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { false }

    /// `self`: the format reads none of the options.
    public func applying(_ options: DecodingOptions) -> any ResponseDecoder { self }

    /// `false`: a format decodes at a pointer only when it says so.
    public var decodesAtPointer: Bool { false }

    /// The whole body for the root pointer; otherwise ``SerializationError/Code/unsupportedFeature``.
    public func decode<T: Decodable>(_ type: T.Type, from response: Response, at pointer: JSONPointer) throws -> T {
        guard pointer.isRoot else { throw unsupportedPointer(response) }
        return try decode(type, from: response)
    }

    /// Throws ``SerializationError/Code/unsupportedFeature``.
    public func value(from response: Response, at pointer: JSONPointer) throws -> any Sendable {
        throw unsupportedPointer(response)
    }

    /// The error of a decoder that does not decode at a JSON Pointer.
    func unsupportedPointer(_ response: Response) -> SerializationError {
        SerializationError(
            code: .unsupportedFeature,
            message: "The format '\(id)' cannot decode at a JSON Pointer: only a format whose decoder has "
                + "`decodesAtPointer` (such as json) can. Decode the whole body instead.",
            mediaType: response.contentType, serializerID: id, response: response)
    }
}
