#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// An HTTP response as Decant sees it: status, header fields, where it came from, and the body bytes.
///
/// Build one from raw HTTP/1.1 bytes with `init(raw:requestMethod:url:limits:)` of the `DecantRawHTTP` module, from
/// `URLSession` results with the `DecantFoundation` bridge, or directly with
/// ``init(status:headers:body:url:requestMethod:)``. The media type is always read from the raw `Content-Type` field
/// (``contentType``), never from `HTTPURLResponse.mimeType`.
public struct Response: Sendable, Hashable {
    /// The status code, such as 200.
    public var status: Int
    /// The reason phrase from the status line, when known (informational only).
    public var reasonPhrase: String?
    /// The header fields in the order received.
    public var headers: HTTPHeaderFields
    /// The body bytes, after any transfer coding (chunked) was removed.
    public var body: Data
    /// The URL the response came from, when known. Used for `@2x` image scales and per-host configuration.
    public var url: URL?
    /// The request method, such as `GET` or `HEAD`, when known. A `HEAD` response has no body.
    public var requestMethod: String?
    /// Trailer fields of a chunked body, when there were any.
    public var trailers: HTTPHeaderFields

    /// Creates a response.
    public init(
        status: Int = 200,
        headers: HTTPHeaderFields = [:],
        body: Data = Data(),
        url: URL? = nil,
        requestMethod: String? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.requestMethod = requestMethod
        self.reasonPhrase = nil
        self.trailers = [:]
    }

    /// The media type from the `Content-Type` field(s), per WHATWG "extract a MIME type"; `nil` when absent or
    /// unparseable.
    public var contentType: MediaType? { headers.contentType }

    /// Whether the request method was `HEAD` (methods are case-sensitive, RFC 9110 §9.1).
    public var isHeadRequest: Bool { requestMethod == "HEAD" }

    /// A copy with a different body.
    public func replacingBody(_ body: Data) -> Response {
        var copy = self
        copy.body = body
        return copy
    }

    /// A copy whose `Content-Type` field is replaced by `mediaType`.
    public func replacingContentType(_ mediaType: MediaType) -> Response {
        var copy = self
        copy.headers.set(mediaType.description, for: "Content-Type")
        return copy
    }
}

extension Response: CustomStringConvertible {
    /// The status line, the header fields and a short, escaped snippet of the body.
    public var description: String {
        var text = "HTTP \(status)"
        if let reasonPhrase, !reasonPhrase.isEmpty { text += " " + reasonPhrase }
        if let requestMethod { text += " (\(requestMethod)\(url.map { " " + $0.absoluteString } ?? ""))" }
        for field in headers { text += "\n" + field.description }
        text += "\n\n" + BodySnippet.describe(body, limit: 256)
        return text
    }
}
