public import DecantJSON

extension ProblemDetails: ConformanceRepresentable {
    /// `{"type", "title", "status", "detail", "instance", "extensions": {...}}`, members absent from the document
    /// left out: `type` is always there (`"about:blank"` by default), `extensions` only when there are some, in
    /// document order. `type` and `instance` are the resolved URLs' absolute strings. This form is a stable contract
    /// (conformance fixtures, `decant decode --json`).
    public func conformanceValue() throws -> JSONValue {
        var members: [(String, JSONValue)] = [("type", try JSONValue(checking: type.absoluteString))]
        if let title { members.append(("title", try JSONValue(checking: title))) }
        if let status { members.append(("status", JSONValue(status))) }
        if let detail { members.append(("detail", try JSONValue(checking: detail))) }
        if let instance { members.append(("instance", try JSONValue(checking: instance.absoluteString))) }
        if !extensions.isEmpty { members.append(("extensions", extensionObject)) }
        return .object(members)
    }
}
