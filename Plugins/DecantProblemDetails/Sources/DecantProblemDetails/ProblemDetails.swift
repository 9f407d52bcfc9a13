public import DecantJSON

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A problem details object (RFC 9457): a machine-readable description of an error an HTTP API reports.
///
/// The five members of RFC 9457 §3.1 are typed properties; every other member is an extension member (§3.2), kept in
/// ``extensions`` in document order. A member whose value has the wrong type (`"status": "500"`, `"title": 5`) is
/// ignored, as §3.1 requires: processing continues as if it were absent. ``type`` and ``instance`` are URI
/// references; relative ones are resolved against the response's URL (§3.1.1, §3.1.5, RFC 3986 §5).
///
/// ```swift
/// let registry = SerializerRegistry.standard.installing(.problemDetails)
/// do {
///     let user = try registry.serialize(response, as: JSONValue.self)
/// } catch let error as SerializationError {
///     if let problem = error.problemDetails {   // the errorValue of a 4xx/5xx problem+json or problem+xml body
///         print(problem.type, problem.title ?? "", problem[extension: "balance"]?.intValue ?? 0)
///     }
/// }
/// ```
///
/// Equality compares every member; extension members are compared in order (two documents listing the same
/// extensions in another order are not equal), and their values under `JSONValue`'s equality.
public struct ProblemDetails: Sendable, Hashable {
    /// An extension member (RFC 9457 §3.2): a member other than the five §3.1 defines, with its value.
    public struct Extension: Sendable, Hashable {
        /// The member's name.
        public var name: String
        /// The member's value. Values from `application/problem+xml` are strings, arrays and objects (see
        /// ``ProblemDetails/init(parsing:format:mediaType:baseURL:options:)``).
        public var value: JSONValue

        /// An extension member named `name` with `value`.
        public init(name: String, value: JSONValue) {
            self.name = name
            self.value = value
        }
    }

    /// The problem type's URI when the document names none: `about:blank` (RFC 9457 §3.1.1, §4.2.1).
    public static let aboutBlank: URL = URL(string: "about:blank")!

    /// The names of the members RFC 9457 §3.1 defines: `type`, `title`, `status`, `detail`, `instance`.
    public static let standardMemberNames: Set<String> = ["type", "title", "status", "detail", "instance"]

    /// The problem type (RFC 9457 §3.1.1), resolved against the response URL when relative; ``aboutBlank`` when
    /// absent, not a string, or not a URI reference.
    public var type: URL
    /// A short, human-readable summary of the problem type (RFC 9457 §3.1.3), when the document has one as a string.
    public var title: String?
    /// The HTTP status code the server generated for this occurrence (RFC 9457 §3.1.2), when the document has one as
    /// an integer (in JSON a number with an integral value, such as `404` or `404.0`; in XML a positive integer).
    public var status: Int?
    /// A human-readable explanation specific to this occurrence (RFC 9457 §3.1.4), when the document has one as a
    /// string.
    public var detail: String?
    /// A URI reference identifying this occurrence (RFC 9457 §3.1.5), resolved against the response URL when
    /// relative; `nil` when absent, not a string, or not a URI reference.
    public var instance: URL?
    /// The extension members (RFC 9457 §3.2), in document order. A name that occurs twice keeps its last value, at
    /// the position of its first occurrence.
    public var extensions: [Extension]

    /// A problem with the given members.
    ///
    /// - Parameters:
    ///   - type: The problem type; ``aboutBlank`` by default.
    ///   - title: The summary of the problem type.
    ///   - status: The HTTP status code.
    ///   - detail: The explanation of this occurrence.
    ///   - instance: The URI of this occurrence.
    ///   - extensions: The extension members, in order.
    public init(
        type: URL = ProblemDetails.aboutBlank, title: String? = nil, status: Int? = nil, detail: String? = nil,
        instance: URL? = nil, extensions: [Extension] = []
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = instance
        self.extensions = extensions
    }

    /// Whether ``type`` is `about:blank`: the problem has no semantics beyond its HTTP status code (RFC 9457 §4.2.1).
    public var isAboutBlank: Bool { type.absoluteString == "about:blank" }

    /// The value of the extension member named `name`, or `nil` when there is none.
    public subscript(extension name: String) -> JSONValue? {
        extensions.first { $0.name == name }?.value
    }

    /// The extension members as one JSON object, in order.
    public var extensionObject: JSONValue {
        .object(extensions.map { ($0.name, $0.value) })
    }
}
