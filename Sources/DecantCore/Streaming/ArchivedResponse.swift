/// An HTTP response kept in an archive (a WARC file, a HAR log): the response as it was recorded, where it sits in
/// the archive, and whether the archive kept all of its body.
///
/// The record type of the streaming serializers that read archives, so that a program decodes every response of an
/// archive through a registry the way it decodes the parts of a multipart body: read the archive's records with
/// ``SerializerRegistry/records(_:body:as:options:statusCodes:maxErrorBodyBytes:)`` or a ``RecordReader``, then
/// decode each ``response`` with the registry. `decant archive` does this for a whole file.
///
/// A record whose payload is not an HTTP response (a malformed status line, say) still has its index and target
/// URI: its ``response`` is the failure, so that a program can report it and go on.
public struct ArchivedResponse: Sendable {
    /// Why an archive kept less than the whole body, as it states.
    public struct Truncation: Sendable, Hashable, CustomStringConvertible {
        /// The reason as the archive states it: WARC-Truncated's value (`length`, `time`, `disconnect`,
        /// `unspecified`, or another token), or `length` when the archive kept fewer bytes than it says the body had.
        public var reason: String
        /// The number of body bytes the archive kept.
        public var keptBytes: Int
        /// The body's size as the archive states it, when it does.
        public var statedBytes: Int?

        /// Creates a truncation.
        public init(reason: String, keptBytes: Int, statedBytes: Int? = nil) {
            self.reason = reason
            self.keptBytes = keptBytes
            self.statedBytes = statedBytes
        }

        /// The reason, with the sizes: `length (kept 1024 of 4096 bytes)`.
        public var description: String {
            if let statedBytes { return "\(reason) (kept \(keptBytes) of \(statedBytes) bytes)" }
            return "\(reason) (kept \(keptBytes) bytes)"
        }
    }

    /// The response's position among the archive's responses, from 0 (records that are not responses do not count).
    public var index: Int
    /// The URI the response was for (WARC-Target-URI, HAR's `request.url`), as the archive gives it.
    public var targetURI: String?
    /// The byte offset of the record in the archive (of its gzip member, when the archive compresses records).
    public var offset: Int
    /// The response, with ``Response/url`` set from ``targetURI`` when that parses; or why the record is not a
    /// response that can be read (a malformed HTTP message, a HAR entry without a status).
    public var response: Result<Response, SerializationError>
    /// `nil` when the archive kept the whole body; otherwise what it says about the part it did not keep.
    public var truncation: Truncation?

    /// Creates an archived response.
    public init(
        index: Int, targetURI: String?, offset: Int, response: Result<Response, SerializationError>,
        truncation: Truncation? = nil
    ) {
        self.index = index
        self.targetURI = targetURI
        self.offset = offset
        self.response = response
        self.truncation = truncation
    }
}

/// The responses of a whole archive, in archive order: what an archive format's serializer makes when the body is not
/// streamed (the same ``ArchivedResponse``s its ``RecordReader`` hands out one at a time), whatever the format.
///
/// ```swift
/// let archive = Response(headers: ["Content-Type": "application/warc"], body: body)
/// let responses = try registry.serialize(archive, as: ArchivedResponses.self).responses
/// ```
public struct ArchivedResponses: Sendable {
    /// The responses, in archive order.
    public var responses: [ArchivedResponse]

    /// Creates the value.
    public init(responses: [ArchivedResponse]) { self.responses = responses }
}
