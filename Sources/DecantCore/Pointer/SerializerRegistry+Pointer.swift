extension SerializerRegistry {
    /// Decodes a `T` from the value at `pointer` in `response`, with the decoder of the format its media type
    /// resolves to, without decoding the rest of the body; otherwise as
    /// ``decode(_:from:options:sniffing:statusCodes:emptyBodyPolicy:)`` does (validation, options, fallback to
    /// candidates as specific, the error body of an unacceptable status).
    ///
    /// ```swift
    /// // {"data": [{"name": "Ada"}, ...], "meta": {...}}
    /// let name = try registry.decode(String.self, from: response, at: "/data/0/name")
    /// let users = try registry.decode([User].self, from: response, at: "/data")
    /// ```
    ///
    /// A format decodes at a pointer when its decoder says so (``ResponseDecoder/decodesAtPointer``); the others
    /// throw ``SerializationError/Code/unsupportedFeature``.
    ///
    /// - Throws: ``SerializationError``: ``SerializationError/Code/pointerNotFound`` when the body has no value at
    ///   `pointer` (the message names the deepest part that matched), ``SerializationError/Code/decodingFailed`` with
    ///   a coding path that starts with the pointer's tokens, and the errors of
    ///   ``decode(_:from:options:sniffing:statusCodes:emptyBodyPolicy:)``.
    public func decode<T: Decodable & Sendable>(
        _ type: T.Type,
        from response: Response,
        at pointer: JSONPointer,
        options: DecodingOptions = DecodingOptions(),
        sniffing: SniffingPolicy = .trustHeader,
        statusCodes: StatusCodes = .success,
        emptyBodyPolicy: EmptyBodyPolicy = .default
    ) throws(SerializationError) -> T {
        try decode(
            type, from: response, pointer: pointer, errorModel: nil, options: options, sniffing: sniffing,
            statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
    }

    /// The format's own value at `pointer` in `response` (a `JSONValue` for JSON, a `CBORValue` for CBOR, ...), made
    /// by the decoder of the format its media type resolves to (``ResponseDecoder/value(from:at:)``), behind the
    /// default validation.
    ///
    /// ```swift
    /// let chosen = try registry.value(from: response, at: "/data/0")
    /// chosen.value as? JSONValue   // {"name": "Ada"}
    /// ```
    ///
    /// - Throws: ``SerializationError``: ``SerializationError/Code/pointerNotFound``,
    ///   ``SerializationError/Code/unsupportedFeature`` when the format does not decode at a pointer,
    ///   ``SerializationError/Code/noSerializer`` when no installed format with a decoder accepts the media type,
    ///   and the status, empty-body and parse errors.
    public func value(
        from response: Response,
        at pointer: JSONPointer,
        sniffing: SniffingPolicy = .trustHeader,
        statusCodes: StatusCodes = .success,
        emptyBodyPolicy: EmptyBodyPolicy = .default
    ) throws(SerializationError) -> SerializedValue {
        let resolution = resolve(response, sniffing: sniffing)
        let serializers = candidateDecoders(resolution, options: DecodingOptions()).map { decoder in
            PointedValueSerializer(decoder: decoder, pointer: pointer).eraseToAnySerializer()
        }
        var compound = CompoundSerializer(serializers, sniffing: sniffing, id: "registry")
        compound.fallsBackOnlyAsSpecifically = true
        let chain = try decodingChain(
            compound, response: response, resolution: resolution, errorModel: nil, sniffing: sniffing,
            statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
        if serializers.isEmpty, emptyBodyPolicy.emptinessReason(for: response, whitespaceIsEmpty: false) == nil {
            if let error = chain.statusValidation.error(for: response, serializer: compound) { throw error }
            throw noDecoder(for: JSONPointer.self, resolution: resolution, response: response)
        }
        let chosen = try chain.serialize(response)
        return SerializedValue(
            value: chosen.value, serializerID: chosen.serializerID, mediaType: resolution.mediaType,
            resolution: resolution)
    }
}

/// A decoder's value at a pointer, with the decoder's id: what ``SerializerRegistry/value(from:at:sniffing:statusCodes:emptyBodyPolicy:)``
/// runs for each candidate.
private struct PointedValueSerializer: ResponseSerializer {
    let decoder: any ResponseDecoder
    let pointer: JSONPointer

    var id: SerializerID { decoder.id }
    var mediaRanges: [MediaRange] { decoder.mediaRanges }

    func countsWhitespaceAsEmpty(for response: Response) -> Bool { decoder.countsWhitespaceAsEmpty(for: response) }

    func serialize(_ response: Response) throws -> Chosen<any Sendable> {
        Chosen(value: try decoder.value(from: response, at: pointer), serializerID: id)
    }
}
