public import DecantCore
public import Foundation

// The bridge from `URLSession` results to `Response`: the one place in Decant that needs full Foundation (and
// FoundationNetworking on Linux, where `URLResponse` lives).
#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension Response {
    /// Creates a response from what a `URLSession` data task returned.
    ///
    /// - An `HTTPURLResponse` becomes ``init(data:httpResponse:requestMethod:)`` with the method of `request`, its
    ///   fields describing the body as `URLSession` hands it over: the content codings `URLSession` has removed
    ///   are no longer in `Content-Encoding` (see *Content codings* below).
    /// - Any other `URLResponse` (a `file:` or `data:` URL, a custom `URLProtocol`) becomes status 200 with a
    ///   `Content-Type` rebuilt from `mimeType` and `textEncodingName` (`type/subtype; charset=name`), which are the
    ///   only media type information such a response has; no `Content-Type` field when `mimeType` is `nil`.
    /// - A `nil` `data` becomes an empty body.
    ///
    /// The URL is `response.url`; the request method is `request?.httpMethod`.
    ///
    /// ## Content codings
    ///
    /// `URLSession` removes the content codings it knows from the body itself (RFC 9110 §8.4) and keeps the
    /// `Content-Encoding` and `Content-Length` fields as the server sent them. The response describes the body it
    /// holds instead, so that a chain with `ContentDecoding()` does not decode a body twice:
    /// - The codings `URLSession` decodes are removed from `Content-Encoding`, from the last listed (the last
    ///   applied) backwards: `gzip`, `x-gzip`, `deflate`, `br` and `zstd` on Linux, where FoundationNetworking's
    ///   libcurl decodes every coding listed or fails the task ("Unrecognized content encoding type"), so no coding
    ///   is left; `gzip`, `deflate` and `br` on Apple platforms. The field goes when no coding is left.
    /// - A coding `URLSession` does not decode (an unknown one, on Apple platforms) stops the removal: it and the
    ///   codings before it stay listed, because the body still carries them, and `ContentDecoding()` reports the
    ///   coding it cannot decode instead of failing on the bytes.
    /// - When a coding was removed, `Content-Length` (the encoded size) becomes the size of the body handed over.
    /// - A response without a body by protocol (a `HEAD` request, 1xx, 204, 304) keeps its fields: they describe a
    ///   representation, not bytes that were decoded.
    ///
    /// A custom `URLProtocol` that hands over bytes still encoded should not set `Content-Encoding` (or build the
    /// response with ``init(data:httpResponse:requestMethod:)``, which keeps every field as it is).
    ///
    /// - Parameters:
    ///   - data: The body bytes, or `nil` when there were none.
    ///   - response: The response; `nil` when the task failed before a response arrived.
    ///   - request: The request, when known; it supplies the method (`HEAD` responses have no body).
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/malformedMessage`` when `response` is
    ///   `nil`.
    public init(data: Data?, response: URLResponse?, request: URLRequest? = nil) throws(SerializationError) {
        try self.init(data: data ?? Data(), response: response, request: request, bodyLength: data?.count ?? 0)
    }

    /// ``init(data:response:request:)`` where the body's length after `URLSession`'s decoding is `bodyLength`, or
    /// not known yet (`nil`: the head of a body still arriving, whose `Content-Length` then goes when a coding was
    /// removed).
    init(data: Data, response: URLResponse?, request: URLRequest?, bodyLength: Int?) throws(SerializationError) {
        guard let response else {
            throw SerializationError(
                code: .malformedMessage,
                message: "There is no response to read (the URLResponse is nil): the request failed before a "
                    + "response arrived, so there are no status, header fields or body; check the error URLSession "
                    + "returned with it (for example a timeout or a TLS failure) instead of decoding.",
                response: nil
            )
        }
        let method = request?.httpMethod
        if let httpResponse = response as? HTTPURLResponse {
            self.init(data: data, httpResponse: httpResponse, requestMethod: method)
            removeCodingsDecodedBySession(bodyLength: bodyLength)
            return
        }
        var headers = HTTPHeaderFields()
        if let mimeType = response.mimeType, !mimeType.isEmpty {
            var value = mimeType
            if let charset = response.textEncodingName, !charset.isEmpty { value += "; charset=" + charset }
            headers.append(name: "Content-Type", value: value)
        }
        self.init(status: 200, headers: headers, body: data, url: response.url, requestMethod: method)
    }

    /// Creates a response from an `HTTPURLResponse` and its body.
    ///
    /// The header fields come from `allHeaderFields`, never from `mimeType` or `textEncodingName`: on Linux those
    /// mis-read values such as `text/html ;Charset=GBK` (a space before `;`, a capitalised parameter name), while
    /// Decant parses the raw `Content-Type` itself (see ``Response/contentType``).
    ///
    /// `allHeaderFields` is a dictionary, so the order the fields arrived in is lost, and Foundation has already
    /// joined repeated fields into one comma-separated value (`Set-Cookie` included). To be deterministic the fields
    /// are sorted by name, ASCII case-insensitively. `URLSession` does not expose the reason phrase, so
    /// ``Response/reasonPhrase`` is `nil`. The body is kept as given, even for `HEAD`, `204` and `304` responses, and
    /// so are the fields, `Content-Encoding` included: for the body of a `URLSession` task, which `URLSession` has
    /// already decoded, use ``init(data:response:request:)``.
    ///
    /// - Parameters:
    ///   - data: The body bytes.
    ///   - httpResponse: The response; its `url` becomes ``Response/url``.
    ///   - requestMethod: The request method, when known (`HEAD` responses have no body).
    public init(data: Data, httpResponse: HTTPURLResponse, requestMethod: String? = nil) {
        self.init(
            status: httpResponse.statusCode,
            headers: HTTPHeaderFields(sortedFrom: httpResponse.allHeaderFields),
            body: data,
            url: httpResponse.url,
            requestMethod: requestMethod
        )
    }
}

extension Response {
    /// The content codings `URLSession` removes from a body itself, lowercased (see
    /// ``init(data:response:request:)``).
    #if canImport(FoundationNetworking)
        // libcurl's decoders (FoundationNetworking asks for every one it has); a coding it lacks fails the task.
        static let codingsDecodedBySession: Set<String> = ["gzip", "x-gzip", "deflate", "br", "zstd"]
    #else
        static let codingsDecodedBySession: Set<String> = ["gzip", "deflate", "br"]
    #endif

    /// Whether the response has no body whatever its fields say: the answer to a `HEAD` request, a 1xx, 204 or 304
    /// (RFC 9110 §6.4.1).
    var hasNoBodyByProtocol: Bool { isHeadRequest || status < 200 || status == 204 || status == 304 }

    /// Describes the body as `URLSession` hands it over: the one statement of the rule documented on
    /// ``init(data:response:request:)``, for whole bodies and for the head of a body still arriving (`bodyLength`
    /// `nil`).
    mutating func removeCodingsDecodedBySession(bodyLength: Int?) {
        guard !hasNoBodyByProtocol else { return }
        var codings = headers.contentCodings
        guard !codings.isEmpty else { return }
        var removed = false
        while let last = codings.last, Self.codingsDecodedBySession.contains(last.lowercased()) {
            codings.removeLast()
            removed = true
        }
        guard removed else { return }
        headers.set(codings.isEmpty ? nil : codings.joined(separator: ", "), for: "Content-Encoding")
        if headers.contains("Content-Length") { headers.set(bodyLength.map { String($0) }, for: "Content-Length") }
    }
}

extension HTTPURLResponse {
    /// The media type of the raw `Content-Type` field, parsed by Decant (WHATWG "extract a MIME type").
    ///
    /// Use this instead of `mimeType` and `textEncodingName`, which on Linux get `text/html ;Charset=GBK` wrong.
    /// `nil` when there is no `Content-Type` or it does not parse.
    public var decantContentType: MediaType? {
        HTTPHeaderFields(sortedFrom: allHeaderFields).contentType
    }
}

extension HTTPHeaderFields {
    /// Header fields from `HTTPURLResponse.allHeaderFields`, sorted by name (ASCII case-insensitive, then exact) so
    /// the result does not depend on dictionary order. Non-string keys and values are described as text.
    init(sortedFrom dictionary: [AnyHashable: Any]) {
        var fields: [Field] = []
        fields.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            let name = key.base as? String ?? String(describing: key.base)
            let text = value as? String ?? String(describing: value)
            fields.append(Field(name: name, value: text))
        }
        fields.sort { lhs, rhs in
            let left = lhs.name.lowercased()
            let right = rhs.name.lowercased()
            if left != right { return left < right }
            if lhs.name != rhs.name { return lhs.name < rhs.name }
            return lhs.value < rhs.value
        }
        self.init(fields)
    }
}
