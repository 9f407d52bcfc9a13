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
    /// - An `HTTPURLResponse` becomes ``init(data:httpResponse:requestMethod:)`` with the method of `request`.
    /// - Any other `URLResponse` (a `file:` or `data:` URL, a custom `URLProtocol`) becomes status 200 with a
    ///   `Content-Type` rebuilt from `mimeType` and `textEncodingName` (`type/subtype; charset=name`), which are the
    ///   only media type information such a response has; no `Content-Type` field when `mimeType` is `nil`.
    /// - A `nil` `data` becomes an empty body.
    ///
    /// The URL is `response.url`; the request method is `request?.httpMethod`.
    ///
    /// - Parameters:
    ///   - data: The body bytes, or `nil` when there were none.
    ///   - response: The response; `nil` when the task failed before a response arrived.
    ///   - request: The request, when known; it supplies the method (`HEAD` responses have no body).
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/malformedMessage`` when `response` is
    ///   `nil`.
    public init(data: Data?, response: URLResponse?, request: URLRequest? = nil) throws(SerializationError) {
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
            self.init(data: data ?? Data(), httpResponse: httpResponse, requestMethod: method)
            return
        }
        var headers = HTTPHeaderFields()
        if let mimeType = response.mimeType, !mimeType.isEmpty {
            var value = mimeType
            if let charset = response.textEncodingName, !charset.isEmpty { value += "; charset=" + charset }
            headers.append(name: "Content-Type", value: value)
        }
        self.init(status: 200, headers: headers, body: data ?? Data(), url: response.url, requestMethod: method)
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
    /// ``Response/reasonPhrase`` is `nil`. The body is kept as given, even for `HEAD`, `204` and `304` responses.
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
