public import DecantCore

/// A chain built from a configuration: aliases, then a `ResponseChain` around a `CompoundSerializer` of the
/// configured serializers. It behaves exactly like the same chain built in code.
///
/// ```swift
/// let chain = try loaded.chain(named: "api")
/// let value = try chain.serialize(response)                  // the format's value (JSONValue, String, ...)
/// let json = try chain.serialize(response, as: JSONValue.self)
/// let user = try chain.decode(User.self, from: response)     // a Decodable type, with the chain's `decoding`
/// ```
public struct ConfiguredChain: ResponseSerializer {
    /// The chain's name.
    public let name: String
    /// The chain's settings.
    public let settings: ChainConfiguration.Chain
    /// The aliases that apply (global ones first).
    public let aliasing: MediaTypeAliasing
    /// The validation stages and the compound.
    public let chain: ResponseChain<ChoiceReportingSerializer<any Sendable>>
    /// The `Decodable` options of the chain file's `decoding` object, on top of the registry's and the formats'
    /// defaults; ``decode(_:from:options:)`` uses them unless a call overrides them.
    public let decodingOptions: DecodingOptions
    /// The `Decodable` decoders of the chain's serializers that have one, in the chain's order, built with the
    /// serializers' options and the decoding options of the registry, the formats and the chain file.
    let decoders: [any ResponseDecoder]
    /// Why the decoder of a serializer that should have one could not be built.
    let decoderErrors: [SerializationError]

    /// The compound's ranges.
    public var mediaRanges: [MediaRange] { chain.mediaRanges }
    /// The compound's id.
    public var id: SerializerID { chain.id }

    /// Applies the aliases and runs the chain; the value's type is the succeeding serializer's output type.
    public func serialize(_ response: Response) throws -> any Sendable {
        try serializeReportingChoice(response).value
    }

    /// The answer of the serializer the chain would try first.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool {
        chain.countsWhitespaceAsEmpty(for: response)
    }

    /// The empty value of the first serializer that has one.
    public func emptyValue(for response: Response) throws -> any Sendable {
        try chain.emptyValue(for: response).value
    }

    /// Applies the aliases and runs the chain, reporting which serializer produced the value.
    public func serializeReportingChoice(_ response: Response) throws(SerializationError) -> Chosen<any Sendable> {
        let aliased: Response
        do {
            aliased = try aliasing.process(response)
        } catch {
            throw SerializationError(wrapping: error, response: response)
        }
        return try chain.serialize(aliased)
    }

    /// Applies the aliases and runs the chain, returning the value as a `T`, the output type of the serializer
    /// expected to succeed (`JSONValue` for `json`, `String` for `string`, ...).
    ///
    /// - Throws: `SerializationError`: the chain's errors, or `SerializationError/Code/unexpectedOutputType`
    ///   when the serializer that succeeded produces another type (for a `Decodable` type, use
    ///   ``decode(_:from:options:)``).
    public func serialize<T: Sendable>(_ response: Response, as type: T.Type) throws(SerializationError) -> T {
        let result = try serializeReportingChoice(response)
        guard let value = result.value as? T else {
            var message =
                "The serializer '\(result.serializerID)' of the chain '\(name)' produced a "
                + "\(Swift.type(of: result.value)), not the requested \(T.self). "
            message +=
                T.self is any Decodable.Type
                ? "To decode \(T.self) from the body, call `chain.decode(\(T.self).self, from: response)`."
                : "Ask for that type, or list a serializer that produces \(T.self) first."
            throw SerializationError(
                code: .unexpectedOutputType, message: message, mediaType: response.contentType,
                serializerID: result.serializerID, response: response)
        }
        return value
    }

    /// Applies the aliases and decodes a `T` from the body with the `Decodable` decoders of the chain's serializers
    /// (those with one: `json`, `propertyList`, ...), behind the chain's stages (limits, content decoding, status
    /// codes, empty-body policy), with the chain file's `decoding` options.
    ///
    /// An empty response gives `T.emptyResponseValue` when `T` is `EmptyResponseDecodable` (optionals are); the body
    /// of an unacceptable status is decoded into `SerializationError.errorValue` as ``serialize(_:)`` decodes it.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - response: The response.
    ///   - options: This call's `Decodable` options, each one set overriding the chain's ``decodingOptions``.
    /// - Throws: `SerializationError`: the chain's stage errors, the decoding error, or
    ///   `SerializationError/Code/noSerializer` when none of the chain's serializers decodes `Decodable` types.
    public func decode<T: Decodable & Sendable>(
        _ type: T.Type, from response: Response, options: DecodingOptions = DecodingOptions()
    ) throws(SerializationError) -> T {
        let aliased: Response
        do {
            aliased = try aliasing.process(response)
        } catch {
            throw SerializationError(wrapping: error, response: response)
        }
        guard !decoders.isEmpty else {
            if let broken = decoderErrors.first { throw broken.filling(response: aliased) }
            let ids = settings.serializers.map { "'\($0.id)'" }.joined(separator: ", ")
            throw SerializationError(
                code: .noSerializer,
                message: "The chain '\(name)' cannot decode \(T.self): none of its serializers (\(ids)) decodes "
                    + "Decodable types. Add one that does (such as \"json\" or \"propertyList\") to the chain's "
                    + "serializers, or ask for a serializer's own value with `chain.serialize(response, as:)`.",
                mediaType: aliased.contentType, response: aliased)
        }
        let serializers = decoders.map { decoder in
            DecodableResponseSerializer<T>(decoder: options.isEmpty ? decoder : decoder.applying(options))
                .eraseToAnySerializer()
        }
        let compound = CompoundSerializer(
            serializers, sniffing: settings.sniffing, triesNonMatching: settings.triesNonMatching,
            order: settings.order, id: chain.id)
        var typed = ResponseChain(
            compound, preprocessors: chain.preprocessors, statusValidation: chain.statusValidation,
            emptyBodyPolicy: chain.emptyBodyPolicy)
        typed.mediaTypeValidation = nil  // the compound matches media types and reports what it tried
        typed.validators = chain.validators
        return try typed.serialize(aliased)
    }
}

extension ConfiguredChain {
    /// Builds the chain exactly as code would: aliases, then `ResponseChain(ChoiceReportingSerializer(compound))`.
    static func make(
        _ settings: ChainConfiguration.Chain, serializers: [AnyResponseSerializer<any Sendable>],
        stages: [any ResponseStage], globalAliases: [ChainConfiguration.MediaTypeAlias],
        errorDecoding: StatusCodeValidation.ErrorBodyDecoding, decodingOptions: DecodingOptions = DecodingOptions(),
        decoders: [any ResponseDecoder] = [], decoderErrors: [SerializationError] = []
    ) -> ConfiguredChain {
        let compound = CompoundSerializer(
            serializers, sniffing: settings.sniffing, triesNonMatching: settings.triesNonMatching,
            order: settings.order, id: SerializerID(rawValue: "chain") ?? "compound")
        var preprocessors: [any ResponseStage] = [BodySizeLimit(maxBytes: settings.maxBodyBytes)]
        // As in code (`ResponseChain.defaultPreprocessors`): bodies that still carry their coding's signature are
        // decoded, unless the chain lists `contentDecoding`, which always decodes.
        if !settings.preprocessors.contains(where: { $0.id == ChainConfiguration.StageReference.contentDecoding.id }) {
            preprocessors.append(
                ContentDecoding(
                    maxDecodedBytes: settings.maxDecodedBytes, maxExpansionRatio: settings.maxExpansionRatio,
                    trigger: .whenSignatureMatches))
        }
        // The listed stages, built by their factories (`SerializerRegistry.stageFactory(for:)`), in order.
        preprocessors += stages
        if let label = settings.defaultCharset { preprocessors.append(DefaultCharset(label: label)) }
        let decoding: StatusCodeValidation.ErrorBodyDecoding
        if case .sameSerializer = errorDecoding {
            decoding = .serializer(compound.eraseOutput())
        } else {
            decoding = errorDecoding
        }
        var chain = ResponseChain(
            ChoiceReportingSerializer(compound), preprocessors: preprocessors,
            statusValidation: StatusCodeValidation(
                acceptable: settings.acceptableStatusCodes, errorBodyDecoding: decoding),
            emptyBodyPolicy: settings.emptyBody)
        chain.mediaTypeValidation = nil  // the compound matches media types and reports what it tried
        return ConfiguredChain(
            name: settings.name, settings: settings, aliasing: MediaTypeAliasing(globalAliases + settings.aliases),
            chain: chain, decodingOptions: decodingOptions, decoders: decoders, decoderErrors: decoderErrors)
    }
}
