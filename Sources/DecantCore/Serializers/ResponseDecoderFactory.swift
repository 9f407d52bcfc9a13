/// A factory whose format also decodes `Decodable` types (JSON, property lists, CBOR, ...): the opt-in that
/// ``SerializerRegistry/decode(_:from:sniffing:statusCodes:emptyBodyPolicy:)`` looks for among the candidates.
public protocol ResponseDecoderFactory: SerializerFactory {
    /// A decoder for `Decodable` types in this format, built from configuration options (checked against
    /// ``SerializerFactory/optionSchema`` like the serializer's).
    func makeResponseDecoder(configuration: ConfigurationOptions) throws -> any ResponseDecoder
}
