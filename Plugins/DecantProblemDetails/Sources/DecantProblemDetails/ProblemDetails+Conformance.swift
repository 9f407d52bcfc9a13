public import DecantCore
public import DecantJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

extension ProblemDetails: ConformanceInitializable {
    /// The problem whose canonical form (``conformanceValue()``) is `form`: an object with `type` (a URI, required),
    /// and optionally `title` and `detail` (strings), `status` (an integer), `instance` (a URI) and `extensions` (an
    /// object whose members are the extension members, in order). `decant encode --content-type
    /// application/problem+json` reads a problem this way.
    ///
    /// - Throws: `SerializationError` with code `unsupportedValue` when `form` is not such an object (an unknown
    ///   member, a member of the wrong type, a URI `URL` does not accept, an extension named like a standard member).
    public init(conformanceValue form: JSONValue) throws(SerializationError) {
        let expected =
            #"{"type": URI, "title": TEXT, "status": INTEGER, "detail": TEXT, "instance": URI, "extensions": {...}}"#
            + " (only type required)"
        func fail(_ why: String) -> SerializationError {
            .canonicalForm(expected: expected + ", but " + why, for: ProblemDetails.self)
        }
        guard let members = form.objectEntries else { throw fail("this is a JSON \(form.kind)") }
        self.init()
        var sawType = false
        for (key, value) in members {
            switch key {
            case "type", "instance":
                guard let text = value.stringValue, let url = URL(string: text) else {
                    throw fail("\"\(key)\" is not a URI string")
                }
                if key == "type" {
                    type = url
                    sawType = true
                } else {
                    instance = url
                }
            case "title", "detail":
                guard let text = value.stringValue else { throw fail("\"\(key)\" is not a string") }
                if key == "title" { title = text } else { detail = text }
            case "status":
                guard value.kind == .number, let code = value.intValue else { throw fail("\"status\" is no integer") }
                status = code
            case "extensions":
                guard let entries = value.objectEntries else { throw fail("\"extensions\" is not an object") }
                for entry in entries {
                    guard !Self.standardMemberNames.contains(entry.key) else {
                        throw fail("the extension \"\(entry.key)\" has the name of a standard member")
                    }
                    extensions.append(Extension(name: entry.key, value: entry.value))
                }
            default:
                throw fail("\"\(key)\" is not one of its members (extension members go in \"extensions\")")
            }
        }
        guard sawType else { throw fail("\"type\" is missing (\"about:blank\" when the problem has no type)") }
    }
}
