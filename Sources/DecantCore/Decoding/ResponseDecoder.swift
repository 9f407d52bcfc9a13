/// Decodes `Decodable` types straight from a response body in one format, such as JSON or property lists.
///
/// A format module provides one (for example a JSON decoder with `JSONDecoder`'s strategies) and returns it from its
/// factory's ``SerializerFactory/makeDecoder(options:)``, so that
/// ``SerializerRegistry/decode(_:from:sniffing:statusCodes:emptyBodyPolicy:)`` can choose it by media type.
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
}

extension ResponseDecoder {
    /// `false`: whitespace is content unless the format says otherwise.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { false }
}
