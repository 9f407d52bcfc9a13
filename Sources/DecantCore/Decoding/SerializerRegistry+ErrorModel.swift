extension SerializerRegistry {
    /// Decodes a `T` from a response with an acceptable status, and the body of any other status into the caller's
    /// error model `E`: the one error of an unacceptable status
    /// (``SerializationError/Code/unacceptableStatusCode``, with ``SerializationError/status`` and the response,
    /// body included) carries the decoded model as ``SerializationError/errorValue``.
    ///
    /// ```swift
    /// do {
    ///     let user = try registry.decode(User.self, from: response, errorModel: APIError.self)
    /// } catch {
    ///     if let apiError = error.errorValue(as: APIError.self) { show(apiError, status: error.status) }
    /// }
    /// ```
    ///
    /// The error body is decoded with the decoder of the format its media type resolves to, with the same options.
    /// When it does not decode as `E` (or no format decodes its media type), the error still has the status and the
    /// body, and ``SerializationError/errorValue`` is `nil`; the decoding failure is in
    /// ``SerializationError/attempts``.
    ///
    /// - Parameters:
    ///   - type: The type of a successful response's value.
    ///   - response: The response.
    ///   - errorModel: The type an unacceptable status's body decodes into.
    ///   - pointer: Where the value of a successful response is (``decode(_:from:at:options:sniffing:statusCodes:emptyBodyPolicy:)``);
    ///     `nil` for the whole body. The error model is always the whole error body.
    ///   - options: The `Decodable` options, for both types.
    ///   - sniffing: When the body may override the header's media type (off by default).
    ///   - statusCodes: The acceptable statuses.
    ///   - emptyBodyPolicy: What an empty response with an acceptable status becomes.
    /// - Throws: ``SerializationError``, as ``decode(_:from:options:sniffing:statusCodes:emptyBodyPolicy:)``.
    public func decode<T: Decodable & Sendable, E: Decodable & Sendable>(
        _ type: T.Type,
        from response: Response,
        errorModel: E.Type,
        at pointer: JSONPointer? = nil,
        options: DecodingOptions = DecodingOptions(),
        sniffing: SniffingPolicy = .trustHeader,
        statusCodes: StatusCodes = .success,
        emptyBodyPolicy: EmptyBodyPolicy = .default
    ) throws(SerializationError) -> T {
        try decode(
            type, from: response, pointer: pointer,
            errorModel: errorModelSerializer(E.self, options: options, sniffing: sniffing),
            options: options, sniffing: sniffing, statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
    }

    /// The serializer of error bodies into `E`: the decoders of a resolution's candidates, as specific as the
    /// first, with `options` applied.
    func errorModelSerializer<E: Decodable & Sendable>(
        _ type: E.Type, options: DecodingOptions, sniffing: SniffingPolicy
    ) -> (Resolution) -> AnyResponseSerializer<any Sendable> {
        { resolution in
            let serializers = self.candidateDecoders(resolution, options: options).map { decoder in
                DecodableResponseSerializer<E>(decoder: decoder).eraseToAnySerializer()
            }
            var compound = CompoundSerializer(serializers, sniffing: sniffing, id: "registry")
            compound.fallsBackOnlyAsSpecifically = true
            return compound.eraseOutput()
        }
    }
}

extension SerializationError {
    /// ``errorValue`` as a `Model`, or `nil` when there is none or it is of another type: the caller's error model
    /// of ``SerializerRegistry/decode(_:from:errorModel:at:options:sniffing:statusCodes:emptyBodyPolicy:)``.
    public func errorValue<Model>(as type: Model.Type) -> Model? {
        errorValue as? Model
    }
}
