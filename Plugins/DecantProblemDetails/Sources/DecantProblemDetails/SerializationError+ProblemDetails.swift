public import DecantCore

extension SerializationError {
    /// The problem details document the server sent with an error status, when there is one.
    ///
    /// This is `errorValue` when a registry with the `problemDetails` serializer
    /// installed decoded the error body into a ``ProblemDetails``. Otherwise, for an
    /// `unacceptableStatusCode` error whose response is
    /// `application/problem+json` or `application/problem+xml` (for example from `registry.decode(_:from:)`, which
    /// does not decode error bodies, or from a registry without this plugin, whose `errorValue` is a `JSONValue`),
    /// the body is parsed now with the default ``ProblemDetailsOptions`` (each time this is read), and `nil` is
    /// returned when it is not a problem document.
    public var problemDetails: ProblemDetails? {
        if let problem = errorValue as? ProblemDetails { return problem }
        guard code == .unacceptableStatusCode, let response, !response.body.isEmpty,
            let mediaType = response.contentType,
            MediaFormat.problemDetails.mediaRanges.contains(where: { $0.matches(mediaType) })
        else { return nil }
        return try? ProblemDetailsResponseSerializer().serialize(response)
    }
}
