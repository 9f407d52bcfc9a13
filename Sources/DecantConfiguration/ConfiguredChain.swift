public import DecantCore

/// A chain built from a configuration: aliases, then a `ResponseChain` around a `CompoundSerializer` of the
/// configured serializers. It behaves exactly like the same chain built in code.
public struct ConfiguredChain: ResponseSerializer {
    /// The chain's name.
    public let name: String
    /// The chain's settings.
    public let settings: ChainConfiguration.Chain
    /// The aliases that apply (global ones first).
    public let aliasing: MediaTypeAliasing
    /// The validation stages and the compound.
    public let chain: ResponseChain<ChoiceReportingSerializer<any Sendable>>

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
}

extension ConfiguredChain {
    /// Builds the chain exactly as code would: aliases, then `ResponseChain(ChoiceReportingSerializer(compound))`.
    static func make(
        _ settings: ChainConfiguration.Chain, serializers: [AnyResponseSerializer<any Sendable>],
        stages: [any ResponseStage], globalAliases: [ChainConfiguration.MediaTypeAlias],
        errorDecoding: StatusCodeValidation.ErrorBodyDecoding
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
            chain: chain)
    }
}
