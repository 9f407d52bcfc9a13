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
}

extension ResponseDecoder {
    /// `false`: whitespace is content unless the format says otherwise.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { false }

    /// `self`: the format reads none of the options.
    public func applying(_ options: DecodingOptions) -> any ResponseDecoder { self }
}
