extension SerializerRegistry {
    /// Decodes a `T` from `response` with the decoder of the format its media type resolves to, behind the default
    /// validation (body size limit, acceptable statuses, empty-body policy).
    ///
    /// The candidates are the installed formats matching the media type, most specific first; the first whose
    /// factory makes a ``ResponseDecoder`` (``SerializerFactory/makeDecoder(options:)``) decodes. A candidate whose
    /// decoder failed to build at installation is reported as such, with the build error. An empty response gives
    /// `T.emptyResponseValue` when `T` is ``EmptyResponseDecodable`` (optionals and ``EmptyResponse`` are). When no
    /// format with `Decodable` support accepts the media type, a serializer for it that makes a `T` itself does (the
    /// `data` serializer gives `Data` from any body), as
    /// ``serialize(_:as:sniffing:statusCodes:emptyBodyPolicy:)`` would, its error included. The body of an
    /// unacceptable status is decoded into ``SerializationError/errorValue`` as
    /// ``serialize(_:sniffing:statusCodes:emptyBodyPolicy:)`` decodes it (a problem+json document, say).
    ///
    /// ```swift
    /// let user = try registry.decode(
    ///     User.self, from: response, options: DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - response: The response.
    ///   - options: The `Decodable` options of this call (key, date and data strategies, `userInfo`): each one set
    ///     overrides the format's and the registry's (``decodingOptions``); see ``DecodingOptions``.
    ///   - sniffing: When the body may override the header's media type (off by default).
    ///   - statusCodes: The acceptable statuses.
    ///   - emptyBodyPolicy: What an empty response becomes.
    /// - Throws: ``SerializationError``: ``SerializationError/Code/noSerializer`` when no installed format with
    ///   `Decodable` support accepts the media type; the status, empty-body and decoding errors otherwise.
    public func decode<T: Decodable & Sendable>(
        _ type: T.Type,
        from response: Response,
        options: DecodingOptions = DecodingOptions(),
        sniffing: SniffingPolicy = .trustHeader,
        statusCodes: StatusCodes = .success,
        emptyBodyPolicy: EmptyBodyPolicy = .default
    ) throws(SerializationError) -> T {
        try decode(
            type, from: response, pointer: nil, errorModel: nil, options: options, sniffing: sniffing,
            statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
    }

    /// The one way a registry decodes a `Decodable`: the whole body or the value at `pointer`, with the error body of
    /// an unacceptable status decoded by `errorModel` (given the resolution) or as ``serialize(_:sniffing:statusCodes:emptyBodyPolicy:)``
    /// would decode it.
    func decode<T: Decodable & Sendable>(
        _ type: T.Type,
        from response: Response,
        pointer: JSONPointer?,
        errorModel: ((Resolution) -> AnyResponseSerializer<any Sendable>)?,
        options: DecodingOptions,
        sniffing: SniffingPolicy,
        statusCodes: StatusCodes,
        emptyBodyPolicy: EmptyBodyPolicy
    ) throws(SerializationError) -> T {
        let resolution = resolve(response, sniffing: sniffing)
        let serializers = candidateDecoders(resolution, options: options).map { decoder in
            DecodableResponseSerializer<T>(decoder: decoder, pointer: pointer).eraseToAnySerializer()
        }
        // As `serialize` does: a failure falls back only to candidates as specific (never from json's
        // `application/json` to string's `text/*`, which cannot judge the format).
        var compound = CompoundSerializer(serializers, sniffing: sniffing, id: "registry")
        compound.fallsBackOnlyAsSpecifically = true
        let chain = try decodingChain(
            RegistryDecodingSerializer(compound: compound), response: response, resolution: resolution,
            errorModel: errorModel, sniffing: sniffing, statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
        if serializers.isEmpty, emptyBodyPolicy.emptinessReason(for: response, whitespaceIsEmpty: false) == nil {
            // No format decodes `Decodable` types from this media type, but a serializer for it may make a `T` itself
            // (`string` a String from text/plain, `data` Data from anything): its value, or its own error. Not at a
            // pointer, which only decoders follow.
            if pointer == nil, errorModel == nil, !candidateSerializers(resolution, producing: T.self).isEmpty {
                return try serialize(
                    response, as: T.self, sniffing: sniffing, statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy
                )
            }
            if let error = chain.statusValidation.error(for: response, serializer: compound) { throw error }
            throw noDecoder(for: T.self, resolution: resolution, response: response)
        }
        return try chain.serialize(response)
    }

    /// The decoders of `resolution`'s candidates, most specific first, each with the options of the registry, its
    /// format and the call (`options`) applied.
    func candidateDecoders(_ resolution: Resolution, options: DecodingOptions) -> [any ResponseDecoder] {
        resolution.candidates.compactMap { candidate -> (any ResponseDecoder)? in
            guard let entry = entry(for: candidate.id), let decoder = entry.decoder else { return nil }
            let merged = decodingOptions.overridden(by: entry.decodingOptions).overridden(by: options)
            return merged.isEmpty ? decoder : decoder.applying(merged)
        }
    }

    /// The chain around a decoding `serializer`: the registry's stages and the call's statuses and empty-body policy,
    /// with the error body of an unacceptable status decoded by `errorModel` or by the compound `serialize` would use.
    func decodingChain<S: ResponseSerializer>(
        _ serializer: S,
        response: Response,
        resolution: Resolution,
        errorModel: ((Resolution) -> AnyResponseSerializer<any Sendable>)?,
        sniffing: SniffingPolicy,
        statusCodes: StatusCodes,
        emptyBodyPolicy: EmptyBodyPolicy
    ) throws(SerializationError) -> ResponseChain<S> {
        let errorBodyDecoding: StatusCodeValidation.ErrorBodyDecoding
        if statusCodes.contains(response.status) {
            errorBodyDecoding = .none
        } else if let errorModel {
            errorBodyDecoding = .serializer(errorModel(resolution))
        } else {
            errorBodyDecoding = .serializer(
                try compoundSerializer(
                    resolution, producing: nil as Never.Type?, sniffing: sniffing, response: response
                )
                .eraseOutput())
        }
        var chain = ResponseChain(
            serializer,
            preprocessors: callStages,
            statusValidation: StatusCodeValidation(acceptable: statusCodes, errorBodyDecoding: errorBodyDecoding),
            emptyBodyPolicy: emptyBodyPolicy)
        chain.mediaTypeValidation = nil
        return chain
    }

    /// The error when no candidate of `resolution` has a decoder: the build error of one that should have had one,
    /// or ``SerializationError/Code/noSerializer`` naming the formats that decode `Decodable` types and what they
    /// accept, and the serializers that do accept the media type.
    func noDecoder<T>(for type: T.Type, resolution: Resolution, response: Response) -> SerializationError {
        let what = resolution.mediaType.map { "the media type \($0.essence)" } ?? "a response without Content-Type"
        // A candidate whose decoder failed to build: its error, not "nothing can decode".
        if let broken = resolution.candidates.lazy.compactMap({ self.entry(for: $0.id)?.decoderBuildError }).first {
            return SerializationError(
                code: broken.code,
                message: "The format '\(broken.serializerID.map(\.rawValue) ?? "?")' would decode \(T.self) from "
                    + "\(what), but its decoder could not be built: \(broken.message)",
                mediaType: resolution.mediaType, serializerID: broken.serializerID,
                codingPath: broken.codingPath, underlying: broken, response: response)
        }
        let withDecoders = entries.filter { $0.decoder != nil }
        var message = "No installed format can decode \(T.self) from \(what). "
        if withDecoders.isEmpty {
            message += "No installed format decodes Decodable types: install one, such as .json or .propertyList."
        } else {
            let formats = withDecoders.map { entry in
                "'\(entry.id)' (\(entry.mediaRanges.map(\.description).joined(separator: ", ")))"
            }
            message +=
                "The formats that decode Decodable types are \(formats.joined(separator: "; ")). Install a format "
                + "for this media type, or have the server send one of those."
        }
        let producers = resolution.candidates.compactMap { candidate -> String? in
            guard let serializer = entry(for: candidate.id)?.defaultSerializer else { return nil }
            return "'\(candidate.id)' (\(serializer.outputTypeName))"
        }
        if !producers.isEmpty {
            message +=
                " The serializers for it make \(producers.joined(separator: ", ")): ask "
                + "`registry.serialize(response, as:)` for that type."
        }
        return SerializationError(
            code: .noSerializer, message: message, mediaType: resolution.mediaType, response: response)
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
