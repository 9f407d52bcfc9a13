/// A serializer with its validation stages in front: the unit users run responses through.
///
/// The stages run in a fixed, documented order, which is also the precedence between their errors:
/// 1. ``preprocessors`` in order (the body size limit first by default, then, when added, content decoding, XSSI
///    prefix removal, BOM removal or your own stages). Their errors win over everything.
/// 2. ``statusValidation``: an unacceptable status throws ``SerializationError/Code/unacceptableStatusCode`` even
///    when the body would parse, with the body kept and, where possible, decoded into
///    ``SerializationError/errorValue``.
/// 3. ``emptyBodyPolicy``: an empty response returns the serializer's empty value or throws
///    ``SerializationError/Code/emptyBody``; the media type is not checked (a 204 has none).
/// 4. ``mediaTypeValidation`` (the serializer's own ranges by default).
/// 5. ``validators``, your additional checks.
/// 6. The serializer. Any error it throws becomes a ``SerializationError`` with the response attached.
///
/// ```swift
/// var chain = ResponseChain(DataResponseSerializer())
/// chain.statusValidation.acceptable = [200, 201]
/// chain.emptyBodyPolicy.outcome = .emptyValueOnlyForNoContent
/// let data = try chain.serialize(response)
/// ```
public struct ResponseChain<Serializer: ResponseSerializer>: ResponseSerializer {
    /// The serializer at the end of the chain.
    public var serializer: Serializer
    /// Stages that run first, in order. Defaults to ``defaultPreprocessors``.
    public var preprocessors: [any ResponseStage]
    /// Which statuses are acceptable and how error bodies are decoded.
    public var statusValidation: StatusCodeValidation
    /// When the body counts as empty and what is returned then.
    public var emptyBodyPolicy: EmptyBodyPolicy
    /// The media type check; `nil` accepts any media type. Defaults to the serializer's own ranges, with a missing
    /// `Content-Type` allowed.
    public var mediaTypeValidation: MediaTypeValidation?
    /// Additional checks, run after the media type check and before the serializer.
    public var validators: [any ResponseStage]

    /// Creates a chain with the default stages around `serializer`.
    public init(
        _ serializer: Serializer,
        preprocessors: [any ResponseStage] = defaultPreprocessors,
        statusValidation: StatusCodeValidation = StatusCodeValidation(),
        emptyBodyPolicy: EmptyBodyPolicy = .default,
        mediaTypeValidation: MediaTypeValidation? = nil,
        validators: [any ResponseStage] = []
    ) {
        self.serializer = serializer
        self.preprocessors = preprocessors
        self.statusValidation = statusValidation
        self.emptyBodyPolicy = emptyBodyPolicy
        self.mediaTypeValidation =
            mediaTypeValidation ?? MediaTypeValidation(acceptableRanges: serializer.mediaRanges)
        self.validators = validators
    }

    /// The body size limit the chain enforces: the smallest ``BodySizeLimit`` among its ``preprocessors``, `nil`
    /// when it has none. Pass it to `URLSession.decantResponse(for:bodySizeLimit:)` (`DecantFoundation`) to stop a
    /// download as soon as the body is over it.
    public var bodySizeLimit: BodySizeLimit? { BodySizeLimit.smallest(in: preprocessors) }

    /// The serializer's ranges.
    public var mediaRanges: [MediaRange] { serializer.mediaRanges }

    /// The serializer's id.
    public var id: SerializerID { serializer.id }

    /// The serializer's empty value.
    public func emptyValue(for response: Response) throws -> Serializer.Output {
        try serializer.emptyValue(for: response)
    }

    /// The serializer's answer.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool {
        serializer.countsWhitespaceAsEmpty(for: response)
    }

    /// Whether every stage would hand `response` to the serializer unchanged: each preprocessor and validator says
    /// so (``ResponseStage/passesUnchanged(_:)``), the status is acceptable, the response is not empty and its media
    /// type is acceptable. The one rule for skipping stages: ``serialize(_:)`` then calls the serializer directly,
    /// and so does a registry for the serializer it resolved.
    public func passesUnchanged(_ response: Response) -> Bool {
        // Stages are asked in place (by index): copying each existential out of its array costs more than the
        // question on the registry's per-call path.
        for index in preprocessors.indices where !preprocessors[index].passesUnchanged(response) { return false }
        guard statusValidation.acceptable.contains(response.status),
            emptyBodyPolicy.emptinessReason(
                for: response, whitespaceIsEmpty: serializer.countsWhitespaceAsEmpty(for: response)) == nil
        else { return false }
        if let mediaTypeValidation, !mediaTypeValidation.passesUnchanged(response) { return false }
        for index in validators.indices where !validators[index].passesUnchanged(response) { return false }
        return true
    }

    /// Runs the stages and the serializer; see the type's documentation for the order.
    ///
    /// - Throws: ``SerializationError``, always with the response attached.
    public func serialize(_ original: Response) throws(SerializationError) -> Serializer.Output {
        if passesUnchanged(original) { return try serializeSkippingStages(original) }
        let id = serializer.id
        var response = original
        for stage in preprocessors {
            do {
                response = try stage.process(response)
            } catch {
                throw SerializationError(wrapping: error, mediaType: original.contentType, response: original)
            }
        }
        if let error = statusValidation.error(for: response, serializer: serializer) {
            throw error
        }
        if let reason = emptyBodyPolicy.emptinessReason(
            for: response, whitespaceIsEmpty: serializer.countsWhitespaceAsEmpty(for: response))
        {
            let allowed: Bool
            switch emptyBodyPolicy.outcome {
            case .emptyValue: allowed = true
            case .emptyValueOnlyForNoContent: allowed = reason.isNoContentByProtocol
            case .error: allowed = false
            }
            guard allowed else {
                throw SerializationError(
                    code: .emptyBody,
                    message: "The response is empty (\(reason)) and the chain's empty-body policy does not allow an "
                        + "empty value here. Set the policy's outcome to .emptyValue if empty responses are normal.",
                    mediaType: response.contentType, serializerID: id, response: response)
            }
            do {
                return try serializer.emptyValue(for: response)
            } catch {
                throw SerializationError(
                    wrapping: error, serializerID: id, mediaType: response.contentType, response: response)
            }
        }
        if let mediaTypeValidation {
            do {
                response = try mediaTypeValidation.process(response)
            } catch {
                throw SerializationError(
                    wrapping: error, serializerID: id, mediaType: response.contentType, response: response)
            }
        }
        for stage in validators {
            do {
                response = try stage.process(response)
            } catch {
                throw SerializationError(
                    wrapping: error, serializerID: id, mediaType: response.contentType, response: response)
            }
        }
        return try serializeSkippingStages(response)
    }

    /// The serializer alone, its error with the response and, when the body looks encoded, a hint.
    func serializeSkippingStages(_ response: Response) throws(SerializationError) -> Serializer.Output {
        do {
            return try serializer.serializeReportingErrors(response)
        } catch {
            throw error.addingEncodingHint(for: response)
        }
    }
}

extension ResponseChain {
    /// The body size limit (``BodySizeLimit/default``, 64 MiB), then content decoding of bodies that still carry
    /// their coding's signature (``ContentDecoding/automatic``).
    public static var defaultPreprocessors: [any ResponseStage] { defaultStages }
}

/// ``ResponseChain/defaultPreprocessors``, built once.
let defaultStages: [any ResponseStage] = [BodySizeLimit.default, ContentDecoding.automatic]

extension SerializationError {
    /// This error with ``ContentDecoding/encodingHint(for:)`` added to its message when the body looks encoded and
    /// the error is about the body's content.
    func addingEncodingHint(for response: Response) -> SerializationError {
        switch code {
        case .bodyTooLarge, .unacceptableStatusCode, .emptyBody, .noSerializer, .unexpectedOutputType,
            .unacceptableMediaType, .missingMediaType:
            return self
        default:
            guard let hint = ContentDecoding.encodingHint(for: response), !message.contains(hint) else { return self }
            var hinted = self
            hinted.message += " " + hint
            return hinted
        }
    }
}
