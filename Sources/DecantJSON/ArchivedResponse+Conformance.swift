public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ArchivedResponse: ConformanceRepresentable {
    /// `{"index": n, "targetURI": text or null, "offset": n, "status": n, "headers": [[name, value], ...],
    /// "body_base64": text, "truncation": {"reason", "keptBytes", "statedBytes"} or null}`; a record that is not a
    /// readable response has `"error": code` in place of `status`, `headers` and `body_base64`.
    ///
    /// The same form for every archive format (WARC, HAR), so that the responses of the same exchange recorded by two
    /// tools compare equal up to their offsets.
    public func conformanceValue() throws -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("index", JSONValue(index)),
            ("targetURI", try targetURI.map { try JSONValue(checking: $0) } ?? nil),
            ("offset", JSONValue(offset)),
        ]
        switch response {
        case .success(let response):
            var headers: [JSONValue] = []
            headers.reserveCapacity(response.headers.count)
            for field in response.headers {
                headers.append(.array([try JSONValue(checking: field.name), try JSONValue(checking: field.value)]))
            }
            members.append(("status", JSONValue(response.status)))
            members.append(("headers", .array(headers)))
            members.append(("body_base64", try JSONValue(checking: response.body.base64EncodedString())))
        case .failure(let error):
            members.append(("error", try JSONValue(checking: error.code.rawValue)))
        }
        members.append(("truncation", try truncation?.conformanceValue() ?? nil))
        return .object(members)
    }
}

extension ArchivedResponse.Truncation: ConformanceRepresentable {
    /// `{"reason": text, "keptBytes": n, "statedBytes": n or null}`, as `decant archive` prints it under
    /// `"truncated"`.
    public func conformanceValue() throws -> JSONValue {
        .object([
            ("reason", try JSONValue(checking: reason)),
            ("keptBytes", JSONValue(keptBytes)),
            ("statedBytes", statedBytes.map { JSONValue($0) } ?? nil),
        ])
    }
}

extension ArchivedResponses: ConformanceRepresentable {
    /// The array of the responses' canonical forms: `[{"index": 0, "targetURI": ..., "offset": ..., ...}, ...]`.
    public func conformanceValue() throws -> JSONValue {
        var forms: [JSONValue] = []
        forms.reserveCapacity(responses.count)
        for response in responses { forms.append(try response.conformanceValue()) }
        return .array(forms)
    }
}
