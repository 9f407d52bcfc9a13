public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// Raw HTTP/1.1 response messages (RFC 9112), as `curl -si URL > case.http` saves them, to and from `Response`.

extension Response {
    /// Parses a raw HTTP/1.1 response message, such as a file saved with `curl -si URL > case.http`.
    ///
    /// What is accepted (RFC 9112):
    /// - **Start.** Empty lines before the status line are skipped (§2.2). Lines may end in CRLF or a bare LF (§2.2).
    /// - **Status line** (§4): `HTTP/1.1 200 OK`, `HTTP/1.0 …`, and `HTTP/2 200` / `HTTP/3 200` as curl prints
    ///   them. The status code must be three digits from 100 to 599; the reason phrase is optional and becomes
    ///   ``reasonPhrase``. Runs of spaces or tabs between the parts are accepted, as §4 allows.
    /// - **Interim responses.** `1xx` blocks (such as `HTTP/1.1 100 Continue`) that precede another status line are
    ///   skipped (RFC 9110 §15.2), and so is the `HTTP/1.1 200 Connection established` block curl prints for a
    ///   proxy tunnel (a `2xx` block with no `Content-Type`, `Content-Length` or `Transfer-Encoding` that is
    ///   directly followed by another status line). The headers of the final response are the ones kept.
    /// - **Header fields** (§5): `name: value`, where the name is an RFC 9110 token and no whitespace may sit
    ///   between the name and the colon (§5.1). Values are trimmed of spaces and tabs. An obsolete line folding (a
    ///   line starting with a space or tab, §5.2) continues the previous value after a single space. Values that
    ///   are not valid UTF-8 are read as ISO-8859-1 (RFC 9110 §5.5 `obs-text`). NUL and bare CR bytes in values are
    ///   rejected (RFC 9110 §5.5). A header section cut off by the end of the data at a line boundary counts as
    ///   complete, so a hand-written fixture without the final empty line still parses.
    /// - **Body length** (§6.3), in this order:
    ///   1. A response to a `HEAD` request (`requestMethod == "HEAD"`) and a `1xx`, `204` or `304` response have no
    ///      body, whatever the header fields say; any bytes after the head are ignored.
    ///   2. When `Transfer-Encoding` is present and its final coding is `chunked` (case-insensitive), the chunked
    ///      coding is decoded (§7.1): hexadecimal chunk sizes, chunk extensions (ignored), the last chunk `0`, then
    ///      trailer fields, which go into ``trailers``. Other transfer codings (such as `gzip`) are not decoded. When
    ///      the final coding is not `chunked`, the body is the rest of the data (§6.3, point 4).
    ///   3. Otherwise a `Content-Length` (RFC 9110 §8.6) gives the body length. Bytes after that many are ignored:
    ///      they belong to no message (on a connection they would be the next response).
    ///   4. Otherwise the body is the rest of the data (§6.3, point 8: read until the connection closes).
    ///
    /// A `Content-Encoding` (RFC 9110 §8.4) is not decoded: the body is kept as sent. Add ``ContentDecoding`` to
    /// the chain's preprocessors to decode `gzip` and `deflate` bodies, and save such responses encoded with
    /// `curl -si --raw --compressed URL` (without `--raw`, curl decodes the body but keeps the `Content-Encoding`
    /// field).
    ///
    /// Every failure is a ``SerializationError`` whose ``SerializationError/offset`` is the byte offset in `raw`
    /// (counted from its first byte, whatever its `startIndex`) where the problem is, and whose message says how to
    /// fix it. Once the head is parsed, ``SerializationError/response`` holds the response so far:
    /// - ``SerializationError/Code/malformedMessage``: no or a bad status line, a bad header field, a bad or
    ///   conflicting `Content-Length`, bad chunked framing.
    /// - ``SerializationError/Code/truncatedBody``: the data ends before the body its framing announced (a short
    ///   `Content-Length` body, a chunked body without its last chunk). The error's response holds the bytes that
    ///   did arrive, so a cut-off body is reported as such, never as a parse error of its format.
    /// - ``SerializationError/Code/limitExceeded``: one of `limits` was exceeded.
    ///
    /// curl decodes a chunked body when it saves it but keeps the `Transfer-Encoding: chunked` field. Such a body
    /// does not start with a chunk-size line (a line of hexadecimal digits), so it is taken as already decoded; a
    /// body that does start like chunked framing is decoded strictly. To keep the original framing in a file, save
    /// with `curl -si --raw URL > case.http`.
    ///
    /// - Parameters:
    ///   - raw: The whole message: status line, header fields, an empty line, the body.
    ///   - requestMethod: The request method, when known; `"HEAD"` means the response has no body.
    ///   - url: The URL the response came from, when known.
    ///   - limits: Bounds on the head and the body; ``RawMessageLimits/default`` unless given.
    /// - Throws: ``SerializationError`` as described above. Never traps, whatever the input.
    public init(
        raw: Data,
        requestMethod: String? = nil,
        url: URL? = nil,
        limits: RawMessageLimits = .default
    ) throws(SerializationError) {
        let parser = RawMessageParser(bytes: Array(raw), limits: limits, requestMethod: requestMethod, url: url)
        self = try parser.parse()
    }

    /// The response serialised as an HTTP/1.1 message (RFC 9112): status line, header fields, an empty line, body.
    ///
    /// - The status line is `HTTP/1.1`, the status as it is, and ``reasonPhrase`` or, when that is `nil` or empty,
    ///   the standard phrase for the status (empty for unregistered codes).
    /// - Header fields are written in order as `Name: value` with CRLF line ends. CR, LF and NUL inside names and
    ///   values are replaced by spaces so that no field can inject another.
    /// - Framing is rewritten to match ``body``: when the final transfer coding is `chunked`, that coding is removed
    ///   (and the `Transfer-Encoding` field with it when nothing is left) and `Content-Length` is set to the size of
    ///   the decoded body; an existing `Content-Length` is otherwise set to `body.count`. ``trailers`` are not
    ///   written.
    /// - A response without a body (a `HEAD` response, `1xx`, `204`, `304`) keeps its header fields as they are and
    ///   is written without ``body``.
    ///
    /// `Response(raw: response.rawMessage)` gives back the same status, header fields (up to the framing changes
    /// above) and body. Header values decoded from ISO-8859-1 are written back as UTF-8.
    public var rawMessage: Data {
        var headers = self.headers
        let hasBody = RawMessageParser.canHaveBody(status: status, requestMethod: requestMethod)
        if hasBody {
            let codings = RawMessageParser.transferCodings(in: headers)
            if RawMessageParser.endsWithChunked(codings) {
                let remaining = codings.dropLast()
                if remaining.isEmpty {
                    // Content-Length takes the place of the first Transfer-Encoding field.
                    var fields: [HTTPHeaderFields.Field] = []
                    var placed = false
                    for field in headers {
                        let isTransferEncoding = HTTPBytes.equalsIgnoringASCIICase(field.name, "Transfer-Encoding")
                        if isTransferEncoding, !placed {
                            fields.append(HTTPHeaderFields.Field(name: "Content-Length", value: String(body.count)))
                            placed = true
                        } else if !isTransferEncoding,
                            !HTTPBytes.equalsIgnoringASCIICase(field.name, "Content-Length")
                        {
                            fields.append(field)
                        }
                    }
                    headers = HTTPHeaderFields(fields)
                } else {
                    // Framing by connection close (RFC 9112 §6.3, point 4); a sender must not also send
                    // Content-Length (§6.2).
                    headers.set(remaining.joined(separator: ", "), for: "Transfer-Encoding")
                    headers.remove("Content-Length")
                }
            } else if codings.isEmpty, headers.contains("Content-Length") {
                headers.set(String(body.count), for: "Content-Length")
            }
        }

        let phrase = reasonPhrase.flatMap { $0.isEmpty ? nil : $0 } ?? RawMessageParser.standardReasonPhrase(status)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + (hasBody ? body.count : 0))
        bytes.append(contentsOf: "HTTP/1.1 \(status) ".utf8)
        bytes.append(contentsOf: RawMessageParser.sanitized(phrase))
        bytes.append(contentsOf: [0x0D, 0x0A])
        for field in headers {
            bytes.append(contentsOf: RawMessageParser.sanitized(field.name))
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: RawMessageParser.sanitized(field.value))
            bytes.append(contentsOf: [0x0D, 0x0A])
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
        var data = Data(bytes)
        if hasBody { data.append(body) }
        return data
    }
}
