public import DecantCore
public import DecantJSON

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension ProblemDetails {
    /// The problem an `application/problem+json` document describes, from its parsed value (RFC 9457 §3).
    ///
    /// `type`, `title`, `status`, `detail` and `instance` become the typed properties when their values have the
    /// type §3.1 gives them, and are ignored otherwise (a string `status`, a numeric `title`, a `null`); every other
    /// member becomes an extension member, in document order.
    ///
    /// - Parameters:
    ///   - json: The parsed document.
    ///   - baseURL: The URL relative `type` and `instance` references are resolved against (the response's URL).
    /// - Throws: `SerializationError` with code ``SerializationError/Code/notAProblemDocument`` when `json` is not
    ///   an object.
    public init(json: JSONValue, baseURL: URL? = nil) throws(SerializationError) {
        guard json.kind == .object else {
            throw SerializationError(
                code: .notAProblemDocument,
                message: "The application/problem+json body is a JSON \(json.kind), not an object; a problem "
                    + "details document is a JSON object such as {\"type\": \"https://example.com/probs/x\", "
                    + "\"title\": \"...\"} (RFC 9457 §3). Send an object, or handle this media type with the 'json' "
                    + "serializer.",
                serializerID: MediaFormat.problemDetails.id)
        }
        self.init()
        for member in json.members {
            switch member.key {
            case "type":
                if let text = member.value.stringValue, let url = Self.resolve(text, against: baseURL) {
                    type = url
                } else {
                    type = Self.aboutBlank
                }
            case "title": title = member.value.stringValue
            case "status": status = Self.status(member.value)
            case "detail": detail = member.value.stringValue
            case "instance": instance = member.value.stringValue.flatMap { Self.resolve($0, against: baseURL) }
            default: extensions.append(Extension(name: member.key, value: member.value))
            }
        }
    }

    /// The problem as an `application/problem+json` document (RFC 9457 §3): an object with `type` (always, as the
    /// URL's absolute string, `about:blank` included), then `title`, `status`, `detail` and `instance` when present,
    /// then the extension members in order. ``init(json:baseURL:)`` reads it back to an equal value.
    ///
    /// - Throws: `SerializationError` with code `limitExceeded` for a string longer than `JSONValue.maxStringBytes`.
    public func jsonValue() throws(SerializationError) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", try JSONValue(checking: type.absoluteString))]
        if let title { members.append(("title", try JSONValue(checking: title))) }
        if let status { members.append(("status", JSONValue(status))) }
        if let detail { members.append(("detail", try JSONValue(checking: detail))) }
        if let instance { members.append(("instance", try JSONValue(checking: instance.absoluteString))) }
        members += extensions.map { ($0.name, $0.value) }
        return .object(members)
    }

    /// A JSON number with an integral value in `Int`'s range (`404`, `404.0`, `4.04e2`), else `nil`.
    static func status(_ value: JSONValue) -> Int? {
        guard value.kind == .number else { return nil }
        return value.intValue
    }

    /// `reference` resolved against `base` (RFC 3986 §5.2), or `reference` itself when there is no base; `nil` when
    /// `reference` is not a URI reference Foundation's `URL` accepts.
    ///
    /// An empty reference is the base itself without its fragment (RFC 3986 §5.2.2), and is ignored without a base.
    static func resolve(_ reference: String, against base: URL?) -> URL? {
        guard let base else { return reference.isEmpty ? nil : URL(string: reference) }
        if reference.isEmpty {
            guard var components = URLComponents(url: base.absoluteURL, resolvingAgainstBaseURL: false) else {
                return nil
            }
            components.fragment = nil
            return components.url
        }
        return URL(string: reference, relativeTo: base)?.absoluteURL
    }
}
