/// The one error Decant throws when a response cannot become a value.
///
/// It says what failed and how to fix it (``message``), carries the context (``mediaType``, ``serializerID``,
/// ``status``, ``offset``, ``codingPath``), wraps the system error it came from (``underlying``), lists every
/// serializer's own error when a ``CompoundSerializer`` tried several (``attempts``), and keeps the whole
/// ``response``, so nothing is lost on failure: the body and status travel with the error.
///
/// Decant's calls declare `throws(SerializationError)`, so in a `do` block of Decant calls `error` already is one:
///
/// ```swift
/// do {
///     let value = try chain.serialize(response)
/// } catch {
///     if error.code == .unacceptableStatusCode { print(error.status, error.errorValue ?? error.response?.body) }
/// }
/// ```
///
/// Prefer that plain `catch`: swiftc 6.3.1 crashes ("Found ownership error?!") on `catch let error as
/// SerializationError` and on `catch where ...` after calls with typed throws.
public struct SerializationError: Error, Sendable {
    /// What kind of failure this is. Codes are strings, so third parties add their own without breaking `switch`es
    /// elsewhere: `extension SerializationError.Code { static let yamlTabs = Self("acme.yaml.tabs") }`.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The stable identifier, such as `"unacceptableStatusCode"`.
        public let rawValue: String
        /// Creates a code from its identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates a code from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The status code is not in the acceptable set.
        public static let unacceptableStatusCode = Code("unacceptableStatusCode")
        /// A configuration has no chain with the requested name.
        public static let unknownChain = Code("unknownChain")
        /// The media type is not one the serializer or chain accepts.
        public static let unacceptableMediaType = Code("unacceptableMediaType")
        /// The response has no `Content-Type` and the chain requires one.
        public static let missingMediaType = Code("missingMediaType")
        /// The body is empty and the empty-body policy (or the serializer) has no empty value for it.
        public static let emptyBody = Code("emptyBody")
        /// The body exceeds the configured size limit.
        public static let bodyTooLarge = Code("bodyTooLarge")
        /// The body is not valid in the serializer's format (a parse error).
        public static let invalidBody = Code("invalidBody")
        /// The body uses a feature the serializer does not support.
        public static let unsupportedFeature = Code("unsupportedFeature")
        /// A decoder limit (depth, pixels, entity expansion, ...) was exceeded.
        public static let limitExceeded = Code("limitExceeded")
        /// The body's text encoding is unknown or the bytes are not valid in it.
        public static let invalidEncoding = Code("invalidEncoding")
        /// The value could not be decoded into the requested `Decodable` type.
        public static let decodingFailed = Code("decodingFailed")
        /// No serializer accepts the response's media type.
        public static let noSerializer = Code("noSerializer")
        /// Every serializer a compound tried failed; see ``SerializationError/attempts``.
        public static let allSerializersFailed = Code("allSerializersFailed")
        /// The serializer produced a value of another type than the caller asked for.
        public static let unexpectedOutputType = Code("unexpectedOutputType")
        /// A raw HTTP message is malformed (status line, header fields, chunked framing).
        public static let malformedMessage = Code("malformedMessage")
        /// A raw HTTP message ends before the body its framing announced.
        public static let truncatedBody = Code("truncatedBody")
        /// A serializer was configured with an option it does not have.
        public static let unknownOption = Code("unknownOption")
        /// A serializer option has the wrong type or an out-of-range value.
        public static let invalidOption = Code("invalidOption")
        /// A configuration names a serializer id that is not registered.
        public static let unknownSerializer = Code("unknownSerializer")
        /// Two serializers claim the same media range at the same rank, or share an id.
        public static let registryConflict = Code("registryConflict")
        /// A serializer threw an error that is not a ``SerializationError``; see ``SerializationError/underlying``.
        public static let serializerFailed = Code("serializerFailed")
        /// A JSON Pointer (``JSONPointer``) names no value of the body; the message says which part of it matched
        /// and what is there, and ``SerializationError/codingPath`` holds the matched tokens and the one that failed.
        public static let pointerNotFound = Code("pointerNotFound")
        /// A text is not a JSON Pointer (RFC 6901): it neither is empty nor starts with `/`, or it has a bad `~`
        /// escape (or, in the URI fragment form, a bad `%` escape).
        public static let invalidPointer = Code("invalidPointer")
    }

    /// The fields, shared by copies: an error is one reference wide, so that a `Result` or a typed `throws` of it costs
    /// what its success costs, and a stream's records are not as large as an error.
    private var fields: Fields

    /// What kind of failure this is.
    public var code: Code {
        get { fields.code }
        set { update { $0.code = newValue } }
    }
    /// A sentence saying what failed and how to fix it.
    public var message: String {
        get { fields.message }
        set { update { $0.message = newValue } }
    }
    /// The media type the response was handled as, when known.
    public var mediaType: MediaType? {
        get { fields.mediaType }
        set { update { $0.mediaType = newValue } }
    }
    /// The serializer that failed, when one did.
    public var serializerID: SerializerID? {
        get { fields.serializerID }
        set { update { $0.serializerID = newValue } }
    }
    /// The byte offset in the body where the failure was found, when known.
    public var offset: Int? {
        get { fields.offset }
        set { update { $0.offset = newValue } }
    }
    /// The coding path (keys and indices) of a `Decodable` or option failure, when known.
    public var codingPath: [String] {
        get { fields.codingPath }
        set { update { $0.codingPath = newValue } }
    }
    /// The error this one wraps, such as a `DecodingError`; never swallowed.
    public var underlying: (any Error)? {
        get { fields.underlying }
        set { update { $0.underlying = newValue } }
    }
    /// The errors of every serializer that was tried, in order, when a compound serializer failed; or the error of
    /// decoding the error body when the status was unacceptable.
    public var attempts: [SerializationError] {
        get { fields.attempts }
        set { update { $0.attempts = newValue } }
    }
    /// The response that failed, body included.
    public var response: Response? {
        get { fields.response }
        set { update { $0.response = newValue } }
    }
    /// A value decoded from the body of an unacceptable-status response (for example a problem+json document).
    public var errorValue: (any Sendable)? {
        get { fields.errorValue }
        set { update { $0.errorValue = newValue } }
    }

    /// Creates an error.
    public init(
        code: Code,
        message: String,
        mediaType: MediaType? = nil,
        serializerID: SerializerID? = nil,
        offset: Int? = nil,
        codingPath: [String] = [],
        underlying: (any Error)? = nil,
        attempts: [SerializationError] = [],
        response: Response? = nil,
        errorValue: (any Sendable)? = nil
    ) {
        fields = Fields(
            Fields.Values(
                code: code, message: message, mediaType: mediaType, serializerID: serializerID, offset: offset,
                codingPath: codingPath, underlying: underlying, attempts: attempts, response: response,
                errorValue: errorValue))
    }

    /// Changes a field: in place when this copy is the only one, else in a fresh copy of the fields.
    private mutating func update(_ change: (inout Fields.Values) -> Void) {
        if !isKnownUniquelyReferenced(&fields) { fields = Fields(fields.values) }
        change(&fields.values)
    }

    /// The storage of an error's fields. Mutated only through ``update(_:)``, when uniquely referenced, which is
    /// what makes sharing it between threads safe.
    private final class Fields: @unchecked Sendable {
        struct Values {
            var code: Code
            var message: String
            var mediaType: MediaType?
            var serializerID: SerializerID?
            var offset: Int?
            var codingPath: [String]
            var underlying: (any Error)?
            var attempts: [SerializationError]
            var response: Response?
            var errorValue: (any Sendable)?
        }

        var values: Values

        init(_ values: Values) { self.values = values }

        var code: Code { values.code }
        var message: String { values.message }
        var mediaType: MediaType? { values.mediaType }
        var serializerID: SerializerID? { values.serializerID }
        var offset: Int? { values.offset }
        var codingPath: [String] { values.codingPath }
        var underlying: (any Error)? { values.underlying }
        var attempts: [SerializationError] { values.attempts }
        var response: Response? { values.response }
        var errorValue: (any Sendable)? { values.errorValue }
    }

    /// Wraps any error: a ``SerializationError`` is returned as it is (with missing context filled in), anything
    /// else becomes ``Code/serializerFailed`` with the original as ``underlying``.
    public init(
        wrapping error: any Error,
        serializerID: SerializerID? = nil,
        mediaType: MediaType? = nil,
        response: Response? = nil
    ) {
        if var existing = error as? SerializationError {
            existing.serializerID = existing.serializerID ?? serializerID
            existing.mediaType = existing.mediaType ?? mediaType
            existing.response = existing.response ?? response
            self = existing
            return
        }
        let serializer = serializerID.map { "The serializer '\($0)'" } ?? "A serializer"
        self.init(
            code: .serializerFailed,
            message: "\(serializer) failed with an error of type \(type(of: error)): \(error).",
            mediaType: mediaType,
            serializerID: serializerID,
            underlying: error,
            response: response
        )
    }

    /// The HTTP status of the response, when known.
    public var status: Int? { response?.status }

    /// A copy with the response, media type and serializer id filled in where they were missing.
    public func filling(
        response: Response? = nil,
        mediaType: MediaType? = nil,
        serializerID: SerializerID? = nil
    ) -> SerializationError {
        var copy = self
        copy.response = copy.response ?? response
        copy.mediaType = copy.mediaType ?? mediaType
        copy.serializerID = copy.serializerID ?? serializerID
        return copy
    }
}

extension SerializationError: CustomStringConvertible, CustomDebugStringConvertible {
    /// The code and message, the context, a capped body snippet, and every attempt indented below.
    public var description: String { render(indent: "", showBody: true) }

    /// The same as ``description``.
    public var debugDescription: String { description }

    private func render(indent: String, showBody: Bool) -> String {
        var text = indent + "[\(code)] \(message)"
        var context: [String] = []
        if let serializerID { context.append("serializer: \(serializerID)") }
        if let mediaType { context.append("media type: \(mediaType)") }
        if let status { context.append("status: \(status)") }
        if let offset { context.append("offset: \(offset)") }
        if !codingPath.isEmpty { context.append("path: \(codingPath.joined(separator: "."))") }
        if !context.isEmpty { text += "\n" + indent + "  (" + context.joined(separator: ", ") + ")" }
        if let underlying, code != .serializerFailed {
            text += "\n" + indent + "  underlying: \(underlying)"
        }
        if showBody, let response {
            text += "\n" + indent + "  body " + BodySnippet.describe(response.body, limit: 256)
        }
        for (index, attempt) in attempts.enumerated() {
            text += "\n" + indent + "  attempt \(index + 1):\n"
            text += attempt.render(indent: indent + "    ", showBody: attempt.response?.body != response?.body)
        }
        return text
    }
}
