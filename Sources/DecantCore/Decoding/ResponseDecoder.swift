/// Decodes `Decodable` types straight from a response body in one format, such as JSON or property lists.
///
/// A format module provides one (for example a JSON decoder with `JSONDecoder`'s strategies) and returns it from its
/// factory's ``SerializerFactory/makeResponseDecoder(configuration:)``, so that
/// ``SerializerRegistry/decode(_:from:sniffing:statusCodes:emptyBodyPolicy:)`` can choose it by media type.
public protocol ResponseDecoder: Sendable {
    /// The id of the format, such as `json`, used in errors and traces.
    var decoderID: SerializerID { get }
    /// The media ranges the decoder accepts.
    var acceptedMediaRanges: [MediaRange] { get }
    /// Decodes a `T` from the body of `response`.
    ///
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/decodingFailed`` (with the coding path
    ///   and, where known, the byte offset) or the format's parse error codes.
    func decode<T: Decodable>(_ type: T.Type, from response: Response) throws -> T
}

/// A `Decodable` type that has a value for empty responses (204, `HEAD`, ...), such as ``EmptyResponse``.
public protocol EmptyResponseDecodable {
    /// The value an empty response decodes to.
    static var emptyResponseValue: Self { get }
}

/// The value of a response that is expected to be empty, like Alamofire's `Empty`: decodes from any empty response
/// and from `{}`-like bodies the decoder accepts.
public struct EmptyResponse: Decodable, Sendable, Hashable, EmptyResponseDecodable {
    /// Creates the value.
    public init() {}
    /// Decodes from anything, ignoring the content.
    public init(from decoder: any Decoder) throws {}
    /// `EmptyResponse()`.
    public static var emptyResponseValue: EmptyResponse { EmptyResponse() }
}

extension Optional: EmptyResponseDecodable {
    /// `nil`: an empty response decodes to no value.
    public static var emptyResponseValue: Optional { nil }
}

/// A serializer that decodes `Value` with a ``ResponseDecoder``: the bridge between decoders and chains.
///
/// ```swift
/// let chain = ResponseChain(DecodableResponseSerializer<User>(decoder: jsonDecoder))
/// let user = try chain.serialize(response)
/// ```
public struct DecodableResponseSerializer<Value: Decodable & Sendable>: ResponseSerializer {
    /// The decoder.
    public let decoder: any ResponseDecoder

    /// Creates the serializer.
    public init(decoder: any ResponseDecoder) { self.decoder = decoder }

    /// The decoder's ranges.
    public var acceptedMediaRanges: [MediaRange] { decoder.acceptedMediaRanges }
    /// The decoder's id.
    public var serializerID: SerializerID { decoder.decoderID }

    /// Decodes the body.
    public func serialize(_ response: Response) throws -> Value {
        try decoder.decode(Value.self, from: response)
    }

    /// `Value.emptyResponseValue` when `Value` is ``EmptyResponseDecodable`` (``EmptyResponse``, optionals), else
    /// ``SerializationError/Code/emptyBody`` saying how to accept empty responses.
    public func emptyValue(for response: Response) throws -> Value {
        try Self.emptyValue(for: response, serializerID: serializerID)
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

extension SerializerFactory {
    /// No `Decodable` support.
    public func makeResponseDecoder(configuration: ConfigurationOptions) throws -> (any ResponseDecoder)? { nil }
}

extension SerializerRegistry {
    /// Decodes a `T` from `response` with the decoder of the format its media type resolves to, behind the default
    /// validation (body size limit, acceptable statuses, empty-body policy).
    ///
    /// The candidates are the installed serializers matching the media type, most specific first; the first whose
    /// factory has a ``ResponseDecoder`` decodes. An empty response gives `T.emptyResponseValue` when `T` is
    /// ``EmptyResponseDecodable`` (optionals and ``EmptyResponse`` are).
    ///
    /// - Throws: ``SerializationError``: ``SerializationError/Code/noSerializer`` when no installed format with
    ///   `Decodable` support accepts the media type; the status, empty-body and decoding errors otherwise.
    public func decode<T: Decodable & Sendable>(
        _ type: T.Type,
        from response: Response,
        sniffing: SniffingPolicy = .trustHeader,
        statusCodes: StatusCodes = .success,
        emptyBodyPolicy: EmptyBodyPolicy = .default
    ) throws(SerializationError) -> T {
        let resolution = resolve(response, sniffing: sniffing)
        let decoders = resolution.candidates.compactMap { candidate -> (any ResponseDecoder)? in
            guard let factory = entry(for: candidate.id)?.factory else { return nil }
            return try? factory.makeResponseDecoder(configuration: [:])
        }
        let serializers = decoders.map { DecodableResponseSerializer<T>(decoder: $0).eraseToAnySerializer() }
        let compound = CompoundSerializer(serializers, sniffing: sniffing, id: "registry")
        var chain = ResponseChain(
            RegistryDecodingSerializer(compound: compound),
            statusValidation: StatusCodeValidation(acceptable: statusCodes, errorBodyDecoding: .none),
            emptyBodyPolicy: emptyBodyPolicy)
        chain.mediaTypeValidation = nil
        if serializers.isEmpty, emptyBodyPolicy.emptinessReason(for: response) == nil {
            let withDecoders = entries.filter { (try? $0.factory.makeResponseDecoder(configuration: [:])) != nil }
            let accepted = withDecoders.flatMap(\.mediaRanges).map(\.description).joined(separator: ", ")
            let type = resolution.mediaType.map { "the media type \($0.essence)" } ?? "a response without Content-Type"
            if let error = chain.statusValidation.error(for: response, serializer: compound) { throw error }
            throw SerializationError(
                code: .noSerializer,
                message: "No installed format can decode \(T.self) from \(type); formats with Decodable support accept "
                    + "\(accepted.isEmpty ? "nothing (install one, such as .json)" : accepted).",
                mediaType: resolution.mediaType, response: response)
        }
        return try chain.serialize(response)
    }
}

/// The registry's decoding compound, with the empty value taken from `Value` itself (no decoder needed).
private struct RegistryDecodingSerializer<Value: Decodable & Sendable>: ResponseSerializer {
    let compound: CompoundSerializer<Value>

    var acceptedMediaRanges: [MediaRange] { compound.acceptedMediaRanges }
    var serializerID: SerializerID { compound.serializerID }

    func serialize(_ response: Response) throws -> Value { try compound.serialize(response) }

    func emptyValue(for response: Response) throws -> Value {
        try DecodableResponseSerializer<Value>.emptyValue(for: response, serializerID: serializerID)
    }
}
