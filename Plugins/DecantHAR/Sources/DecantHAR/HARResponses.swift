public import DecantCore
public import DecantJSON

/// The responses of a whole HAR file: what ``HARResponseSerializer`` makes when the body is not streamed, the same
/// records the stream would hand out, in the order of `log.entries`.
///
/// Its canonical form (`decant decode --json`, the `Fixtures/har` expectations) is the array of the records' canonical
/// forms (`ArchivedResponse`'s, shared with every archive format).
public struct HARResponses: Sendable, ConformanceRepresentable {
    /// One record per element of `log.entries`, in order; an entry that could not be read has a failed `response`.
    public var responses: [ArchivedResponse]

    /// Creates the value.
    public init(responses: [ArchivedResponse]) { self.responses = responses }

    /// `[record, ...]`: each record's canonical form, in order.
    public func conformanceValue() throws -> JSONValue {
        var forms: [JSONValue] = []
        forms.reserveCapacity(responses.count)
        for response in responses { forms.append(try response.conformanceValue()) }
        return .array(forms)
    }
}
