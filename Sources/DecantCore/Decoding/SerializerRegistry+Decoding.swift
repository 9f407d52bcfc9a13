extension SerializerRegistry {
    /// Decodes a `T` from `response` with the decoder of the format its media type resolves to, behind the default
    /// validation (body size limit, acceptable statuses, empty-body policy).
    ///
    /// The candidates are the installed formats matching the media type, most specific first; the first whose
    /// factory makes a ``ResponseDecoder`` (``SerializerFactory/makeDecoder(options:)``) decodes. A candidate whose
    /// decoder failed to build at installation is reported as such, with the build error. An empty response gives `T.emptyResponseValue` when `T` is
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
        let decoders = resolution.candidates.compactMap { entry(for: $0.id)?.decoder }
        let serializers = decoders.map { DecodableResponseSerializer<T>(decoder: $0).eraseToAnySerializer() }
        let compound = CompoundSerializer(serializers, sniffing: sniffing, id: "registry")
        var chain = ResponseChain(
            RegistryDecodingSerializer(compound: compound),
            statusValidation: StatusCodeValidation(acceptable: statusCodes, errorBodyDecoding: .none),
            emptyBodyPolicy: emptyBodyPolicy)
        chain.mediaTypeValidation = nil
        if serializers.isEmpty, emptyBodyPolicy.emptinessReason(for: response, whitespaceIsEmpty: false) == nil {
            let withDecoders = entries.filter { $0.decoder != nil }
            let accepted = withDecoders.flatMap(\.mediaRanges).map(\.description).joined(separator: ", ")
            let type = resolution.mediaType.map { "the media type \($0.essence)" } ?? "a response without Content-Type"
            if let error = chain.statusValidation.error(for: response, serializer: compound) { throw error }
            // A candidate whose decoder failed to build: its error, not "nothing can decode".
            if let broken = resolution.candidates.lazy.compactMap({ self.entry(for: $0.id)?.decoderBuildError }).first {
                throw SerializationError(
                    code: broken.code,
                    message: "The format '\(broken.serializerID.map(\.rawValue) ?? "?")' would decode \(T.self) from "
                        + "\(type), but its decoder could not be built: \(broken.message)",
                    mediaType: resolution.mediaType, serializerID: broken.serializerID,
                    codingPath: broken.codingPath, underlying: broken, response: response)
            }
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

    var mediaRanges: [MediaRange] { compound.mediaRanges }
    var id: SerializerID { compound.id }

    func serialize(_ response: Response) throws -> Value { try compound.serialize(response) }

    func countsWhitespaceAsEmpty(for response: Response) -> Bool { compound.countsWhitespaceAsEmpty(for: response) }

    func emptyValue(for response: Response) throws -> Value {
        try DecodableResponseSerializer<Value>.emptyValue(for: response, serializerID: id)
    }
}
