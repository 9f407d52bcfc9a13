/// A registry's choice for one media type and output type, made once: for callers that turn many responses of the
/// same kind into values.
///
/// ``SerializerRegistry/serialize(_:as:sniffing:statusCodes:emptyBodyPolicy:)`` resolves every response's media
/// type; a prepared serializer resolved when it was made (``SerializerRegistry/prepare(for:as:statusCodes:emptyBodyPolicy:)``)
/// and runs its candidates behind a ``ResponseChain`` of the registry's stages: body size limit, content decoding,
/// status, empty body, then the media type, which must be one its candidates accept (a response without
/// `Content-Type` is tried). When the chosen serializer fails, the next candidates that match as specifically are
/// tried, as the registry does, and the error lists every attempt. Error bodies (unacceptable statuses) are decoded
/// by the registry's serializer for their own media type, so a problem document still becomes the error's value.
///
/// ```swift
/// let registry = SerializerRegistry(modules: [.data])
/// let bytes = try registry.prepare(for: "application/octet-stream", as: Data.self)
/// let response = Response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: Data([1, 2]))
/// let data = try bytes.serialize(response)
/// ```
public struct PreparedSerializer<Output: Sendable>: ResponseSerializer {
    /// How the serializer was chosen: the resolution of the media type it was prepared for.
    public let resolution: Resolution
    /// The chain: the registry's stages around the candidates. It decides when its stages can be skipped.
    @usableFromInline let chain: ResponseChain<PreparedCandidates<Output>>
    /// The chosen serializer, called directly when the chain says its stages would pass a response unchanged.
    @usableFromInline let chosen: AnyResponseSerializer<Output>
    /// The same stages around the chosen serializer erased, in a class that is not generic, so that asking whether
    /// they pass a response unchanged runs code compiled for that one type.
    @usableFromInline let stages: StageCheck

    init(resolution: Resolution, chain: ResponseChain<PreparedCandidates<Output>>) {
        self.resolution = resolution
        self.chain = chain
        self.chosen = chain.serializer.chosen
        var stages = ResponseChain(
            chain.serializer.chosen.eraseOutput(), preprocessors: chain.preprocessors,
            statusValidation: chain.statusValidation, emptyBodyPolicy: chain.emptyBodyPolicy,
            mediaTypeValidation: chain.mediaTypeValidation, validators: chain.validators)
        stages.mediaTypeValidation = chain.mediaTypeValidation
        self.stages = StageCheck(stages)
    }

    /// The id of the chosen serializer.
    public var id: SerializerID { chosen.id }

    /// The ranges the candidates matched the prepared media type with, best first: the responses it accepts.
    public var mediaRanges: [MediaRange] { chain.serializer.mediaRanges }

    /// Runs the stages and the candidates (see the type's documentation).
    ///
    /// - Throws: ``SerializationError``, always with the response attached.
    @inlinable  // specialised where it is called, so that the direct call needs no metadata lookups
    public func serialize(_ response: Response) throws(SerializationError) -> Output {
        guard stages.passesUnchanged(response) else { return try chain.serialize(response) }
        do {
            return try chosen.serialize(response)
        } catch {
            return try serialize(response, afterFailure: error)
        }
    }

    /// What the chain does when the chosen serializer failed: the other candidates, every error kept.
    @usableFromInline
    func serialize(_ response: Response, afterFailure error: any Error) throws(SerializationError) -> Output {
        do {
            return try chain.serializer.serialize(response, afterFailure: error)
        } catch {
            throw SerializationError(
                wrapping: error, serializerID: chosen.id, mediaType: response.contentType,
                response: response
            ).addingEncodingHint(for: response)
        }
    }

    /// The chosen serializer's empty value.
    public func emptyValue(for response: Response) throws -> Output {
        try chain.emptyValue(for: response)
    }

    /// The chosen serializer's answer.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool {
        chosen.countsWhitespaceAsEmpty(for: response)
    }
}

extension SerializerRegistry {
    /// Resolves `mediaType` once and returns a serializer of `T`s for responses of that type: the chosen serializer
    /// and its fallbacks, behind the registry's stages (see ``PreparedSerializer``).
    ///
    /// - Parameters:
    ///   - mediaType: The media type the responses will have, such as `application/json`.
    ///   - type: The output type; only candidates that produce it are kept.
    ///   - statusCodes: The acceptable statuses.
    ///   - emptyBodyPolicy: What an empty response becomes.
    /// - Throws: ``SerializationError/Code/noSerializer`` when nothing accepts `mediaType`;
    ///   ``SerializationError/Code/unexpectedOutputType`` when no candidate produces `T` (for `Decodable` types use
    ///   ``decode(_:from:options:sniffing:statusCodes:emptyBodyPolicy:)``).
    public func prepare<T: Sendable>(
        for mediaType: MediaType, as type: T.Type, statusCodes: StatusCodes = .success,
        emptyBodyPolicy: EmptyBodyPolicy = .default
    ) throws(SerializationError) -> PreparedSerializer<T> {
        let resolution = resolve(mediaType)
        let candidates = resolution.candidates
        guard !candidates.isEmpty else {
            let installed = entries.map(\.id.rawValue).joined(separator: ", ")
            throw SerializationError(
                code: .noSerializer,
                message: "No installed serializer accepts \(mediaType.essence), so nothing can be prepared for it "
                    + "(installed: \(installed.isEmpty ? "none" : installed)). Install a module whose serializer "
                    + "accepts it, or prepare for another media type.",
                mediaType: mediaType)
        }
        var typed: [AnyResponseSerializer<T>] = []
        var ranges: [MediaRange] = []
        for candidate in candidates {
            guard let serializer = entry(for: candidate.id)?.defaultSerializer,
                let typedSerializer = Self.typed(serializer, as: type)
            else { continue }
            typed.append(typedSerializer)
            if !ranges.contains(candidate.range) { ranges.append(candidate.range) }
        }
        guard let chosen = typed.first else {
            throw noSerializerProducing(type, resolution: resolution, response: nil)
        }
        var compound = CompoundSerializer(typed, sniffing: .trustHeader, id: chosen.id)
        compound.fallsBackOnlyAsSpecifically = true
        let registry = self
        // An error body is decoded as the registry decodes any response: by the serializer for its own type.
        let errorBodies = AnyResponseSerializer<any Sendable>(id: "registry") { response in
            try registry.compoundSerializer(for: response).serialize(response)
        }
        let chain = ResponseChain(
            PreparedCandidates(chosen: chosen, compound: compound, mediaRanges: ranges),
            preprocessors: callStages,
            statusValidation: StatusCodeValidation(
                acceptable: statusCodes, errorBodyDecoding: .serializer(errorBodies)),
            emptyBodyPolicy: emptyBodyPolicy)
        return PreparedSerializer(resolution: resolution, chain: chain)
    }

    /// `serializer` as a serializer of `T`s: its own typed form when it produces exactly `T`; when its output type is
    /// known only from its values, one that checks each value; `nil` when it never produces a `T`.
    private static func typed<T: Sendable>(
        _ serializer: AnyResponseSerializer<any Sendable>, as type: T.Type
    ) -> AnyResponseSerializer<T>? {
        if let typed = serializer.typed(as: type) { return typed }
        guard let restricted = serializer.restricted(to: type) else { return nil }
        @Sendable func cast(_ value: any Sendable, _ response: Response) throws -> T {
            guard let value = value as? T else {
                throw SerializationError.unexpectedOutput(
                    value, of: serializer.id, requested: T.self, mediaType: response.contentType,
                    response: response)
            }
            return value
        }
        return AnyResponseSerializer<T>(
            id: restricted.id, mediaRanges: restricted.mediaRanges,
            defersParsing: restricted.defersParsing,
            emptyValue: { try cast(try restricted.emptyValue(for: $0), $0) },
            serialize: { try cast(try restricted.serialize($0), $0) })
    }
}
