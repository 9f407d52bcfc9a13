/// A serializer that decodes `Value` with a ``ResponseDecoder``: the bridge between decoders and chains.
///
/// ```swift
/// let chain = ResponseChain(DecodableResponseSerializer<User>(decoder: jsonDecoder))
/// let user = try chain.serialize(response)
/// ```
public struct DecodableResponseSerializer<Value: Decodable & Sendable>: ResponseSerializer {
    /// The decoder.
    public let decoder: any ResponseDecoder
    /// Where in the body the value is: `nil` for the whole body, or a JSON Pointer the decoder follows
    /// (``ResponseDecoder/decode(_:from:at:)``).
    public let pointer: JSONPointer?

    /// Creates the serializer, decoding the whole body, or the value at `pointer` when it is given.
    public init(decoder: any ResponseDecoder, pointer: JSONPointer? = nil) {
        self.decoder = decoder
        self.pointer = pointer
    }

    /// The decoder's ranges.
    public var mediaRanges: [MediaRange] { decoder.mediaRanges }
    /// The decoder's id.
    public var id: SerializerID { decoder.id }

    /// The decoder's answer.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool {
        decoder.countsWhitespaceAsEmpty(for: response)
    }

    /// Decodes the body, or the value at ``pointer``.
    public func serialize(_ response: Response) throws -> Value {
        guard let pointer else { return try decoder.decode(Value.self, from: response) }
        return try decoder.decode(Value.self, from: response, at: pointer)
    }

    /// `Value.emptyResponseValue` when `Value` is ``EmptyResponseDecodable`` (``EmptyResponse``, optionals), else
    /// ``SerializationError/Code/emptyBody`` saying how to accept empty responses.
    public func emptyValue(for response: Response) throws -> Value {
        try Self.emptyValue(for: response, serializerID: id)
    }

    static func emptyValue(for response: Response, serializerID: SerializerID) throws(SerializationError) -> Value {
        if let empty = Value.self as? any EmptyResponseDecodable.Type, let value = empty.emptyResponseValue as? Value {
            return value
        }
        throw SerializationError(
            code: .emptyBody,
            message: "The response is empty, and \(Value.self) cannot be decoded from nothing. Decode an optional "
                + "(\(Value.self)?) or EmptyResponse when empty responses are expected, or make \(Value.self) "
                + "conform to EmptyResponseDecodable.",
            mediaType: response.contentType, serializerID: serializerID, response: response)
    }
}
