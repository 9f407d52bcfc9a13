/// How a ``ResponseChain`` treats a status outside its acceptable set.
///
/// The status error always wins over anything that follows (it is thrown even when the body would parse), but the
/// body is not thrown away: it travels in ``SerializationError/response``, and when ``errorBodyDecoding`` allows, the
/// chain decodes it into ``SerializationError/errorValue`` (a problem+json document, say). A failure to decode the
/// error body is kept in ``SerializationError/attempts``.
public struct StatusCodeValidation: Sendable {
    /// How the body of an unacceptable-status response is decoded.
    public enum ErrorBodyDecoding: Sendable {
        /// Not at all; the raw body stays in the error's response.
        case none
        /// With the chain's own serializer, when its media ranges accept the error body's media type.
        case sameSerializer
        /// With this serializer (for example a problem+json serializer), when its ranges accept the media type.
        case serializer(AnyResponseSerializer<any Sendable>)
    }

    /// The statuses that pass.
    public var acceptable: StatusCodes
    /// How error bodies are decoded.
    public var errorBodyDecoding: ErrorBodyDecoding

    /// Creates the stage.
    public init(acceptable: StatusCodes = .success, errorBodyDecoding: ErrorBodyDecoding = .sameSerializer) {
        self.acceptable = acceptable
        self.errorBodyDecoding = errorBodyDecoding
    }

    /// The error for `response`, or `nil` when its status is acceptable. `serializer` is the chain's own.
    func error<S: ResponseSerializer>(for response: Response, serializer: S) -> SerializationError? {
        guard !acceptable.contains(response.status) else { return nil }
        var error = SerializationError(
            code: .unacceptableStatusCode,
            message: "The server answered with status \(response.status)\(StatusCodeValidation.phrase(response)), "
                + "but only \(acceptable) is acceptable. The body is kept in the error"
                + " (see `response` and `errorValue`); widen the acceptable status codes if this status carries a "
                + "normal value.",
            mediaType: response.contentType,
            response: response
        )
        guard !response.body.isEmpty, let mediaType = response.contentType else { return error }
        let errorSerializer: AnyResponseSerializer<any Sendable>?
        switch errorBodyDecoding {
        case .none: errorSerializer = nil
        case .sameSerializer: errorSerializer = serializer.eraseOutput()
        case .serializer(let other): errorSerializer = other
        }
        guard let errorSerializer, errorSerializer.accepts(mediaType) else { return error }
        do {
            error.errorValue = try errorSerializer.serializeReportingErrors(response)
        } catch let bodyError {
            error.attempts.append(bodyError)
        }
        return error
    }

    private static func phrase(_ response: Response) -> String {
        guard let phrase = response.reasonPhrase, !phrase.isEmpty else { return "" }
        return " (\(phrase))"
    }
}
