/// The one way a response goes through a registry.
///
/// Every entry point (``SerializerRegistry/serialize(_:sniffing:statusCodes:emptyBodyPolicy:)``, the typed
/// ``SerializerRegistry/serialize(_:as:sniffing:statusCodes:emptyBodyPolicy:)``,
/// ``SerializerRegistry/decode(_:from:options:sniffing:statusCodes:emptyBodyPolicy:)`` and ``PreparedSerializer``)
/// does the same three steps:
/// 1. Resolve the media type to the chosen entry.
/// 2. Ask that entry's chain, built at installation with the registry's stages, whether its stages would pass the
///    response unchanged (``ResponseChain/passesUnchanged(_:)``, the one place for that rule). If so, the chosen
///    serializer runs directly; when it fails, the next candidates that match as specifically are tried.
/// 3. Otherwise the response runs through a chain around a compound of the candidates, which does the stages.
extension SerializerRegistry {
    /// Turns `response` into a value with the serializer the registry resolves, behind the default validation
    /// (body size limit, 2xx, empty-body policy); when the chosen one rejects the body, falls back to the next
    /// candidates that match as specifically.
    ///
    /// An empty response (under `emptyBodyPolicy`) gives the chosen serializer's empty value (JSON's `null`, an
    /// empty string, ...). When no installed serializer accepts its media type, or it has none, and none accepts
    /// every type (`*/*`, as `.data` does), the value is the neutral ``EmptyResponse`` and
    /// ``Chosen/serializerID`` is `registry`: no format is named for a body that none of them claimed.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - sniffing: When the body may override the header's media type (off by default).
    ///   - statusCodes: The acceptable statuses; an error body is decoded into the error when a serializer accepts
    ///     its type.
    ///   - emptyBodyPolicy: What an empty response becomes.
    /// - Throws: ``SerializationError``: ``SerializationError/Code/noSerializer`` when nothing accepts the type.
    public func serialize(
        _ response: Response,
        sniffing: SniffingPolicy = .trustHeader,
        statusCodes: StatusCodes = .success,
        emptyBodyPolicy: EmptyBodyPolicy = .default
    ) throws(SerializationError) -> SerializedValue {
        try serialize(
            response,
            directly: directSerializer(
                for: response, sniffing: sniffing, statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy),
            sniffing: sniffing
        ) { () throws(SerializationError) in
            try serializeThroughChain(
                response, resolution: resolve(response, sniffing: sniffing), producing: nil as Never.Type?,
                sniffing: sniffing, statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
        }
    }

    /// Steps 2 and 3 of an untyped call: `serializer` (the result of step 2) when there is one, with the fallback
    /// to same-specificity candidates when it fails; otherwise `throughChain`.
    func serialize(
        _ response: Response, directly serializer: AnyResponseSerializer<any Sendable>?,
        sniffing: @autoclosure () -> SniffingPolicy,
        otherwise throughChain: () throws(SerializationError) -> SerializedValue
    ) throws(SerializationError) -> SerializedValue {
        guard let serializer else { return try throughChain() }
        let value: any Sendable
        do {
            value = try serializer.serialize(response)
        } catch {
            let policy = sniffing()
            return try serialize(
                response, resolution: resolve(response, sniffing: policy), sniffing: policy,
                afterFailureOf: serializer, error: error, producing: nil as Never.Type?)
        }
        return SerializedValue(
            value: value, serializerID: serializer.id, mediaType: response.contentType,
            resolution: resolve(response, sniffing: sniffing()))
    }

    /// Turns `response` into a value of type `T` (see ``serialize(_:sniffing:statusCodes:emptyBodyPolicy:)``).
    ///
    /// When the chosen serializer produces `T` itself, its value is returned as it is, without the `any Sendable`
    /// box of ``SerializedValue``. Only serializers that produce `T` are tried: when the chosen one fails, the next
    /// candidates of the same output type are, and the error lists every attempt. To turn many responses of one
    /// media type into `T`s, ``prepare(for:as:statusCodes:emptyBodyPolicy:)`` resolves once.
    ///
    /// - Throws: ``SerializationError/Code/unexpectedOutputType`` when no candidate produces `T` (nothing is run; for
    ///   `Decodable` types use ``decode(_:from:options:sniffing:statusCodes:emptyBodyPolicy:)``).
    @inlinable  // specialised for `T` where it is called, so that the direct call needs no metadata lookups
    public func serialize<T: Sendable>(
        _ response: Response, as type: T.Type, sniffing: SniffingPolicy = .trustHeader,
        statusCodes: StatusCodes = .success, emptyBodyPolicy: EmptyBodyPolicy = .default
    ) throws(SerializationError) -> T {
        try serialize(
            response, as: type,
            directly: directSerializer(
                for: response, sniffing: sniffing, statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy),
            sniffing: sniffing
        ) { () throws(SerializationError) -> T in
            try serializeThroughChain(
                response, as: type, sniffing: sniffing, statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
        }
    }

    /// Steps 2 and 3 of a typed call: `serializer` (the result of step 2) when there is one and it produces `T`,
    /// with the fallback to same-specificity candidates of that type when it fails; otherwise `throughChain`.
    @inlinable
    func serialize<T: Sendable>(
        _ response: Response, as type: T.Type, directly serializer: AnyResponseSerializer<any Sendable>?,
        sniffing: @autoclosure () -> SniffingPolicy,
        otherwise throughChain: () throws(SerializationError) -> T
    ) throws(SerializationError) -> T {
        if let serializer {
            do {
                // `nil` when the chosen serializer produces another type: then the chain tries those that do.
                if let value = try serializer.serialize(response, exactly: T.self) { return value }
            } catch {
                let policy = sniffing()
                let result = try serialize(
                    response, resolution: resolve(response, sniffing: policy), sniffing: policy,
                    afterFailureOf: serializer, error: error, producing: T.self)
                return try cast(result, to: T.self, response: response)
            }
        }
        return try throughChain()
    }

    /// Step 2: the chosen entry's serializer, when the media type comes from the header, that entry's chain says
    /// its stages would pass `response` unchanged under `statusCodes` and `emptyBodyPolicy`, and the compound of
    /// step 3 would try it first. `nil` sends the response through step 3.
    @usableFromInline
    func directSerializer(
        for response: Response, sniffing: SniffingPolicy, statusCodes: StatusCodes, emptyBodyPolicy: EmptyBodyPolicy
    ) -> AnyResponseSerializer<any Sendable>? {
        guard sniffing.keepsEveryHeader, let chosen = chosenEntryIndex(for: response),
            let route = routes[chosen]
        else { return nil }
        // The route's stages carry the default limit; another limit takes step 3, whose chain has the registry's.
        guard bodySizeLimit == .default else { return nil }
        if statusCodes == route.chain.statusValidation.acceptable, emptyBodyPolicy == route.chain.emptyBodyPolicy {
            return route.chain.passesUnchanged(response) ? route.chain.serializer : nil
        }
        var adjusted = route.chain
        adjusted.statusValidation.acceptable = statusCodes
        adjusted.emptyBodyPolicy = emptyBodyPolicy
        return adjusted.passesUnchanged(response) ? route.chain.serializer : nil
    }

    /// The entry resolution chooses for `response`'s `Content-Type` (see ``Resolution/chosen``); `nil` without one.
    func chosenEntryIndex(for response: Response) -> Int? {
        response.headers.withContentType { mediaType in
            guard let mediaType, let index = RangeTableRow.firstMatch(in: rangeTable, for: mediaType) else {
                return nil
            }
            return rangeTable[index].entry
        }
    }

    /// The candidates' default serializers, best first; for a typed request (`type` set) only those that can produce
    /// a `T`, those whose output type is unknown checked when they produce a value.
    func candidateSerializers<T>(
        _ resolution: Resolution, producing type: T.Type?
    ) -> [AnyResponseSerializer<any Sendable>] {
        resolution.candidates.compactMap { candidate -> AnyResponseSerializer<any Sendable>? in
            guard let serializer = entry(for: candidate.id)?.defaultSerializer else { return nil }
            return type.map { serializer.restricted(to: $0) } ?? serializer
        }
    }

    /// What step 3 does after the chosen serializer failed with `error` in step 2: the next candidates (for a typed
    /// request, those that can produce `type`), every error kept, under the `registry` id.
    @usableFromInline
    func serialize<T>(
        _ response: Response, resolution: Resolution, sniffing: SniffingPolicy,
        afterFailureOf serializer: AnyResponseSerializer<any Sendable>, error: any Error, producing type: T.Type?
    ) throws(SerializationError) -> SerializedValue {
        // The chosen serializer first (it is the first candidate), so that the compound skips exactly it.
        var compound = CompoundSerializer(
            [serializer]
                + candidateSerializers(resolution, producing: type).filter {
                    $0.id != serializer.id
                },
            sniffing: sniffing, id: "registry")
        compound.fallsBackOnlyAsSpecifically = true
        do {
            let result = try compound.serializeReportingChoice(response, afterFirstFailedWith: error)
            return SerializedValue(
                value: result.value, serializerID: result.serializerID, mediaType: resolution.mediaType,
                resolution: resolution, attempts: result.attempts)
        } catch {
            // What the chain adds around its serializer (`ChoiceReportingSerializer`, id `registry`).
            throw SerializationError(
                wrapping: error, serializerID: compound.id, mediaType: response.contentType,
                response: response
            ).addingEncodingHint(for: response)
        }
    }

    /// Step 3 for a typed request: only the candidates that can produce a `T` are tried.
    @usableFromInline
    func serializeThroughChain<T>(
        _ response: Response, as type: T.Type, sniffing: SniffingPolicy, statusCodes: StatusCodes,
        emptyBodyPolicy: EmptyBodyPolicy
    ) throws(SerializationError) -> T {
        let result = try serializeThroughChain(
            response, resolution: resolve(response, sniffing: sniffing), producing: type, sniffing: sniffing,
            statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
        return try cast(result, to: T.self, response: response)
    }

    /// Step 3: `response` through a chain (body size, status, empty body, content decoding) around a compound of the
    /// candidates.
    func serializeThroughChain<T>(
        _ response: Response, resolution: Resolution, producing type: T.Type?, sniffing: SniffingPolicy,
        statusCodes: StatusCodes, emptyBodyPolicy: EmptyBodyPolicy
    ) throws(SerializationError) -> SerializedValue {
        let compound = try compoundSerializer(resolution, producing: type, sniffing: sniffing, response: response)
        // Error bodies are decoded by the compound itself, so `errorValue` is the format's value. An empty response
        // that no installed format claims by its media type is not given to whichever serializer comes first (JSON's
        // `null` would say "produced by json"): an untyped request gets the neutral `EmptyResponse()`.
        var chain = ResponseChain(
            RegistryChoiceSerializer(
                choice: ChoiceReportingSerializer(compound),
                neutralWhenEmpty: type == nil && resolution.candidates.isEmpty
                    && !entries.contains { $0.mediaRanges.contains(.any) }),
            preprocessors: callStages,
            statusValidation: StatusCodeValidation(
                acceptable: statusCodes, errorBodyDecoding: .serializer(compound.eraseOutput())),
            emptyBodyPolicy: emptyBodyPolicy)
        chain.mediaTypeValidation = nil  // the compound matches media types itself and reports what it tried
        let result: Chosen<any Sendable>
        do {
            result = try chain.serialize(response)
        } catch  where error.code == .noSerializer && resolution.candidates.isEmpty {
            throw noSerializerAccepting(resolution, producing: type, response: response, underlying: error)
        }
        return SerializedValue(
            value: result.value, serializerID: result.serializerID, mediaType: resolution.mediaType,
            resolution: resolution, attempts: result.attempts)
    }

    /// The compound of step 3: the candidates (for a typed request, those that can produce `type`), falling back
    /// only as specifically; every installed serializer when no candidate matches the media type. It also decodes
    /// the body of an unacceptable status into ``SerializationError/errorValue``, for `decode` as for `serialize`.
    ///
    /// - Throws: ``SerializationError/Code/unexpectedOutputType`` when candidates match but none produces `type`.
    func compoundSerializer<T>(
        _ resolution: Resolution, producing type: T.Type?, sniffing: SniffingPolicy, response: Response
    ) throws(SerializationError) -> CompoundSerializer<any Sendable> {
        guard !resolution.candidates.isEmpty else {
            let all = entries.compactMap { entry in
                entry.defaultSerializer.flatMap { serializer in type.map { serializer.restricted(to: $0) } ?? serializer
                }
            }
            return CompoundSerializer(all, sniffing: sniffing, id: "registry")
        }
        let serializers = candidateSerializers(resolution, producing: type)
        if let type, serializers.isEmpty {
            throw noSerializerProducing(type, resolution: resolution, response: response)
        }
        var candidates = CompoundSerializer(serializers, sniffing: sniffing, id: "registry")
        candidates.fallsBackOnlyAsSpecifically = true
        return candidates
    }

    /// The error when no installed serializer accepts the media type: which formats are installed and what they
    /// accept (those that produce `type`, for a typed request), and how to fix it.
    func noSerializerAccepting<T>(
        _ resolution: Resolution, producing type: T.Type?, response: Response, underlying: SerializationError
    ) -> SerializationError {
        let what =
            resolution.mediaType.map { "the media type \($0.essence) (\(resolution.source))" }
            ?? "a response without Content-Type"
        let installed = entries.filter { $0.defaultSerializer != nil }
        var message = "No installed serializer accepts \(what)"
        if type != nil { message += " and produces \(T.self)" }
        message += ". "
        if installed.isEmpty {
            message += "The registry is empty: install a module, such as .json, or use SerializerRegistry.standard."
        } else {
            let formats = installed.map { entry in
                var text = "'\(entry.id)' (\(entry.mediaRanges.map(\.description).joined(separator: ", "))"
                if type != nil, let serializer = entry.defaultSerializer { text += ": \(serializer.outputTypeName)" }
                return text + ")"
            }
            message +=
                "The installed formats are \(formats.joined(separator: "; ")). Install a module whose format reads "
                + "this media type (`registry.install(...)`), alias the type to one of those, or enable sniffing."
        }
        return SerializationError(
            code: .noSerializer, message: message, mediaType: resolution.mediaType, serializerID: "registry",
            attempts: underlying.attempts, response: response)
    }

    /// The error for a typed request that no candidate can produce: names what each candidate produces and, for a
    /// `Decodable` type, points at ``decode(_:from:options:sniffing:statusCodes:emptyBodyPolicy:)``.
    func noSerializerProducing<T>(
        _ type: T.Type, resolution: Resolution, response: Response?
    ) -> SerializationError {
        let produced = resolution.candidates.compactMap { candidate -> String? in
            guard let serializer = entry(for: candidate.id)?.defaultSerializer else { return nil }
            return "'\(candidate.id)' (\(serializer.outputTypeName))"
        }
        var message =
            "None of the serializers for \(resolution.mediaType?.essence ?? "this response") produces \(T.self): "
            + "the candidates are \(produced.joined(separator: ", ")). "
        if T.self is any Decodable.Type {
            message +=
                "To decode a Decodable type from the body, call `registry.decode(\(T.self).self, from: response)`; "
                + "to get the format's own value, ask for its output type."
        } else {
            message += "Ask for one of those output types, or install a serializer that produces \(T.self)."
        }
        return SerializationError(
            code: .unexpectedOutputType, message: message, mediaType: resolution.mediaType,
            serializerID: resolution.chosen?.id, response: response)
    }

    @usableFromInline
    func cast<T>(
        _ result: SerializedValue, to type: T.Type, response: Response
    ) throws(SerializationError) -> T {
        guard let value = result.value as? T else {
            throw SerializationError.unexpectedOutput(
                result.value, of: result.serializerID, requested: T.self, mediaType: result.mediaType,
                response: response)
        }
        return value
    }
}

/// The registry's compound behind its chain: the compound's choice, except that an empty response no installed format
/// claims by media type gives ``EmptyResponse`` (produced by `registry`) when `neutralWhenEmpty` is set.
struct RegistryChoiceSerializer: ResponseSerializer {
    let choice: ChoiceReportingSerializer<any Sendable>
    let neutralWhenEmpty: Bool

    var mediaRanges: [MediaRange] { choice.mediaRanges }
    var id: SerializerID { choice.id }

    func serialize(_ response: Response) throws -> Chosen<any Sendable> { try choice.serialize(response) }

    func countsWhitespaceAsEmpty(for response: Response) -> Bool { choice.countsWhitespaceAsEmpty(for: response) }

    func emptyValue(for response: Response) throws -> Chosen<any Sendable> {
        guard neutralWhenEmpty else { return try choice.emptyValue(for: response) }
        return Chosen(value: EmptyResponse(), serializerID: id)
    }
}
