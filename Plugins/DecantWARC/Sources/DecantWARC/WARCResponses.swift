public import DecantCore
public import DecantJSON

/// The responses of a whole WARC file: what ``WARCResponseSerializer`` makes when the body is not streamed, the same
/// ``ArchivedResponse``s the stream would hand out, in archive order.
///
/// Its canonical form (`decant decode --json`, the `Fixtures/warc` expectations) is the array of the responses'
/// canonical forms (see `ArchivedResponse`'s `conformanceValue()` in DecantJSON).
public struct WARCResponses: Sendable, ConformanceRepresentable {
    /// The responses, in archive order.
    public var responses: [ArchivedResponse]

    /// Creates the value.
    public init(responses: [ArchivedResponse]) { self.responses = responses }

    /// `[{"index": 0, "targetURI": ..., "offset": ..., "status": ..., ...}, ...]`.
    public func conformanceValue() throws -> JSONValue {
        var forms: [JSONValue] = []
        forms.reserveCapacity(responses.count)
        for response in responses { forms.append(try response.conformanceValue()) }
        return .array(forms)
    }
}
