/// Rejects responses whose media type is not in a list of ranges.
public struct MediaTypeValidation: ResponseStage, Hashable {
    /// The acceptable ranges.
    public var acceptableRanges: [MediaRange]
    /// Whether a response without `Content-Type` passes (so it can be sniffed or tried anyway).
    public var allowsMissingMediaType: Bool

    /// Creates the stage.
    public init(acceptableRanges: [MediaRange], allowsMissingMediaType: Bool = true) {
        self.acceptableRanges = acceptableRanges
        self.allowsMissingMediaType = allowsMissingMediaType
    }

    /// Whether the response's media type is acceptable (or missing, when that is allowed).
    public func passesUnchanged(_ response: Response) -> Bool {
        response.headers.withContentType { mediaType in
            guard let mediaType else { return allowsMissingMediaType }
            return acceptableRanges.contains { $0.matches(mediaType) }
        }
    }

    /// Throws ``SerializationError/Code/unacceptableMediaType`` or ``SerializationError/Code/missingMediaType``.
    public func process(_ response: Response) throws -> Response {
        let accepted = acceptableRanges.map(\.description).joined(separator: ", ")
        guard let mediaType = response.contentType else {
            if allowsMissingMediaType { return response }
            throw SerializationError(
                code: .missingMediaType,
                message: "The response has no valid Content-Type, and one of \(accepted) is required. Fix the "
                    + "server, or enable sniffing or allow a missing media type in the chain.",
                response: response)
        }
        guard acceptableRanges.contains(where: { $0.matches(mediaType) }) else {
            throw SerializationError(
                code: .unacceptableMediaType,
                message: "The media type \(mediaType.essence) is not acceptable here; expected \(accepted). Add a "
                    + "serializer or an alias for \(mediaType.essence), or fix the server's Content-Type.",
                mediaType: mediaType, response: response)
        }
        return response
    }
}
