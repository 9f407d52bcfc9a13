import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Parses one raw HTTP/1.1 response message; see ``Response/init(raw:requestMethod:url:limits:)``.
struct RawMessageParser {
    let bytes: [UInt8]
    let requestMethod: String?
    let url: URL?
    let maxHeaderBytes: Int
    let maxHeaderFields: Int
    let maxBodyBytes: Int

    init(bytes: [UInt8], limits: Response.RawMessageLimits, requestMethod: String?, url: URL?) {
        self.bytes = bytes
        self.requestMethod = requestMethod
        self.url = url
        self.maxHeaderBytes = Swift.max(0, limits.maxHeaderBytes)
        self.maxHeaderFields = Swift.max(0, limits.maxHeaderFields)
        self.maxBodyBytes = Swift.max(0, limits.maxBodyBytes)
    }

    static let curlHint = "save responses with `curl -si URL > case.http`, which keeps the body bytes exact"

    // MARK: Lines

    /// One line: its content without the line end, where the next line starts, and whether a LF ended it.
    struct Line {
        var content: Range<Int>
        var next: Int
        var terminated: Bool
    }

    /// The line starting at `start` (CRLF or bare LF ends it, RFC 9112 §2.2).
    ///
    /// `nil` when no LF occurs before `searchEnd` although the data goes on past it: the line is longer than the
    /// limit the caller is enforcing. At the end of the data an unterminated line is returned as it is.
    func line(from start: Int, searchEnd: Int) -> Line? {
        let end = Swift.min(bytes.count, searchEnd)
        var index = start
        while index < end {
            if bytes[index] == 0x0A {
                var contentEnd = index
                if contentEnd > start, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                return Line(content: start..<contentEnd, next: index + 1, terminated: true)
            }
            index += 1
        }
        guard end >= bytes.count else { return nil }
        let lower = Swift.min(start, bytes.count)
        var contentEnd = bytes.count
        if contentEnd > lower, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
        return Line(content: lower..<contentEnd, next: bytes.count, terminated: false)
    }

    /// `start + length`, clamped so it cannot overflow.
    func limitEnd(from start: Int, length: Int) -> Int {
        length > Int.max - start ? Int.max : start + length
    }

    /// Skips empty lines (CRLF or LF) starting at `position`.
    func skippingEmptyLines(from position: Int) -> Int {
        var position = position
        while position < bytes.count {
            if bytes[position] == 0x0A {
                position += 1
            } else if bytes[position] == 0x0D, position + 1 < bytes.count, bytes[position + 1] == 0x0A {
                position += 2
            } else {
                break
            }
        }
        return position
    }

    func startsWithHTTPName(at position: Int) -> Bool {
        let name: [UInt8] = [0x48, 0x54, 0x54, 0x50, 0x2F]  // "HTTP/"
        guard position >= 0, bytes.count - position >= name.count else { return false }
        return bytes[position..<position + name.count].elementsEqual(name)
    }

    // MARK: Errors

    func error(
        _ code: SerializationError.Code,
        _ message: String,
        at offset: Int,
        response: Response? = nil
    ) -> SerializationError {
        SerializationError(code: code, message: message, offset: offset, response: response)
    }

    func headerLimitError(at offset: Int) -> SerializationError {
        error(
            .limitExceeded,
            "The head of the message (status lines and header fields up to the empty line) is larger than "
                + "maxHeaderBytes (\(maxHeaderBytes) bytes); raise `RawMessageLimits.maxHeaderBytes` if the "
                + "response is genuine, or check that the data is an HTTP response at all.",
            at: offset
        )
    }

    // MARK: Head

    /// A parsed status line and header section.
    struct Head {
        var status: Int
        var reasonPhrase: String?
        var fields: HTTPHeaderFields
        /// The offset of each field's line, parallel to `fields`.
        var fieldOffsets: [Int]
        /// Where the body starts.
        var end: Int
    }

    func parse() throws(SerializationError) -> Response {
        var position = skippingEmptyLines(from: 0)
        var head = try parseHead(at: position)
        while true {
            let next = skippingEmptyLines(from: head.end)
            if (100..<200).contains(head.status), next < bytes.count,
                head.status != 101 || startsWithHTTPName(at: next)
            {
                // An interim response (RFC 9110 §15.2): the final response follows. After `101 Switching
                // Protocols` only another status line (curl's `HTTP/2 200` after an h2c upgrade) is a response.
                position = next
            } else if (200..<300).contains(head.status), startsWithHTTPName(at: next),
                !head.fields.contains("Content-Type"), !head.fields.contains("Content-Length"),
                !head.fields.contains("Transfer-Encoding")
            {
                // curl's `HTTP/1.1 200 Connection established` block for a proxy tunnel (RFC 9110 §9.3.6).
                position = next
            } else {
                break
            }
            head = try parseHead(at: position)
        }

        var response = Response(status: head.status, headers: head.fields, url: url, requestMethod: requestMethod)
        response.reasonPhrase = head.reasonPhrase
        guard Self.canHaveBody(status: head.status, requestMethod: requestMethod) else { return response }

        let bodyStart = head.end
        let codings = Self.transferCodings(in: head.fields)
        if !codings.isEmpty {
            if Self.endsWithChunked(codings) {
                if startsWithChunkFraming(at: bodyStart) {
                    try decodeChunked(from: bodyStart, into: &response)
                } else {
                    // `curl -si` saves the decoded body but keeps `Transfer-Encoding: chunked`.
                    try readToEnd(from: bodyStart, into: &response)
                }
                return response
            }
            try readToEnd(from: bodyStart, into: &response)
            return response
        }
        switch head.fields.contentLength {
        case nil:
            try readToEnd(from: bodyStart, into: &response)
        case .invalid?:
            let index = head.fields.firstIndex { HTTPBytes.equalsIgnoringASCIICase($0.name, "Content-Length") }
            let values = head.fields.values(for: "Content-Length").map { "'\($0)'" }.joined(separator: ", ")
            throw error(
                .malformedMessage,
                "The Content-Length (\(values)) is not a number of bytes, or several different numbers (RFC 9110 "
                    + "§8.6, RFC 9112 §6.3); fix or remove the field so that the body length is unambiguous.",
                at: index.map { head.fieldOffsets[$0] } ?? bodyStart,
                response: response
            )
        case .bytes(let length)?:
            guard length <= maxBodyBytes else {
                throw error(
                    .limitExceeded,
                    "The Content-Length announces \(length) bytes, more than maxBodyBytes (\(maxBodyBytes)); raise "
                        + "`RawMessageLimits.maxBodyBytes` to accept bodies this large.",
                    at: bodyStart,
                    response: response
                )
            }
            let available = Swift.max(0, bytes.count - bodyStart)
            guard available >= length else {
                response.body = Data(bytes[Swift.min(bodyStart, bytes.count)...])
                throw error(
                    .truncatedBody,
                    "The body is truncated: the Content-Length announces \(length) bytes but only \(available) "
                        + "arrived; the data was cut off, so \(Self.curlHint) and check that the file is complete.",
                    at: bytes.count,
                    response: response
                )
            }
            // Bytes after `length` belong to no message (RFC 9112 §6.3) and are ignored.
            response.body = Data(bytes[bodyStart..<bodyStart + length])
        }
        return response
    }

    /// Parses a status line and its header section starting at `start`.
    func parseHead(at start: Int) throws(SerializationError) -> Head {
        guard start < bytes.count else {
            let what = start == 0 ? "The data is empty" : "The data holds only empty lines"
            throw error(
                .malformedMessage,
                "\(what): there is no status line such as `HTTP/1.1 200 OK`; \(Self.curlHint) (`-i` includes the "
                    + "status line and the header fields).",
                at: start
            )
        }
        guard let statusLine = line(from: start, searchEnd: maxHeaderBytes) else { throw headerLimitError(at: start) }
        let (status, reasonPhrase) = try parseStatusLine(statusLine.content)
        var head = Head(status: status, reasonPhrase: reasonPhrase, fields: [:], fieldOffsets: [], end: statusLine.next)
        guard statusLine.terminated else { return head }
        let section = try parseFieldSection(from: statusLine.next, searchEnd: maxHeaderBytes, isTrailer: false)
        head.fields = section.fields
        head.fieldOffsets = section.offsets
        head.end = section.end
        return head
    }

    /// Parses `HTTP-version SP status-code [SP reason-phrase]` (RFC 9112 §4).
    func parseStatusLine(_ range: Range<Int>) throws(SerializationError) -> (Int, String?) {
        let start = range.lowerBound
        let end = range.upperBound
        func malformed(_ what: String, at offset: Int) -> SerializationError {
            let shown = String(decoding: bytes[start..<Swift.min(end, start + 80)], as: UTF8.self)
            return error(
                .malformedMessage,
                "The status line '\(shown)' is malformed: \(what). A response starts with a status line such as "
                    + "`HTTP/1.1 200 OK` (RFC 9112 §4); \(Self.curlHint) (`-i` includes the status line).",
                at: offset
            )
        }
        guard startsWithHTTPName(at: start), end - start >= 5 else {
            throw malformed("it does not start with `HTTP/`", at: start)
        }
        // HTTP-version: `HTTP/1.0`, `HTTP/1.1`; curl prints `HTTP/2` and `HTTP/3` (optionally with `.0`).
        var index = start + 5
        guard index < end, let major = Self.digitValue(bytes[index]) else {
            throw malformed("the HTTP version is missing after `HTTP/`", at: index)
        }
        index += 1
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < end, Self.digitValue(bytes[index]) != nil else {
                throw malformed("the HTTP version has no minor digit after the dot", at: index)
            }
            index += 1
        }
        guard (1...3).contains(major) else {
            throw malformed("HTTP major version \(major) is not HTTP/1.x, HTTP/2 or HTTP/3", at: start + 5)
        }
        guard index < end, HTTPBytes.isOWS(bytes[index]) else {
            throw malformed("a space and a three-digit status code must follow the HTTP version", at: index)
        }
        while index < end, HTTPBytes.isOWS(bytes[index]) { index += 1 }
        // status-code = 3DIGIT, 100...599 (RFC 9110 §15).
        let codeStart = index
        var status = 0
        while index < end, let digit = Self.digitValue(bytes[index]), index - codeStart < 3 {
            status = status * 10 + digit
            index += 1
        }
        guard index - codeStart == 3, index == end || HTTPBytes.isOWS(bytes[index]) else {
            throw malformed("the status code must be exactly three digits", at: codeStart)
        }
        guard (100...599).contains(status) else {
            throw malformed("the status code \(status) is outside 100...599", at: codeStart)
        }
        // reason-phrase = 1*( HTAB / SP / VCHAR / obs-text ), optional.
        while index < end, HTTPBytes.isOWS(bytes[index]) { index += 1 }
        var reasonEnd = end
        while reasonEnd > index, HTTPBytes.isOWS(bytes[reasonEnd - 1]) { reasonEnd -= 1 }
        if let bad = bytes[index..<reasonEnd].firstIndex(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            throw malformed("the reason phrase contains the control byte 0x\(Self.hex(bytes[bad]))", at: bad)
        }
        let reason = index < reasonEnd ? Self.text(bytes[index..<reasonEnd]) : nil
        return (status, reason)
    }

    /// A header or trailer section: fields, the offset of each field's line, and where the section ends.
    struct FieldSection {
        var fields: HTTPHeaderFields
        var offsets: [Int]
        var end: Int
    }

    /// Parses `*( field-line CRLF ) CRLF` (RFC 9112 §5, §7.1.2) from `start`; LF must occur before `searchEnd`.
    func parseFieldSection(
        from start: Int, searchEnd: Int, isTrailer: Bool
    ) throws(SerializationError)
        -> FieldSection
    {
        let section = isTrailer ? "trailer section" : "header section"
        var names: [Range<Int>] = []
        var values: [[UInt8]] = []
        var offsets: [Int] = []
        var position = start
        func malformed(_ what: String, at offset: Int) -> SerializationError {
            error(.malformedMessage, what, at: offset)
        }

        while position < bytes.count {
            guard let line = line(from: position, searchEnd: searchEnd) else {
                if isTrailer {
                    throw error(
                        .limitExceeded,
                        "The trailer section of the chunked body is larger than maxHeaderBytes (\(maxHeaderBytes) "
                            + "bytes); raise `RawMessageLimits.maxHeaderBytes` if the response is genuine.",
                        at: position
                    )
                }
                throw headerLimitError(at: position)
            }
            let lower = line.content.lowerBound
            let upper = line.content.upperBound
            position = line.next
            if lower == upper { break }  // The empty line that ends the section.

            if HTTPBytes.isOWS(bytes[lower]) {
                // obs-fold (RFC 9112 §5.2): join to the previous value with a single space.
                guard !values.isEmpty else {
                    throw malformed(
                        "The first line of the \(section) starts with whitespace, which RFC 9112 §2.2 and §5.2 do "
                            + "not allow there; remove the leading spaces or tabs.",
                        at: lower
                    )
                }
                let folded = HTTPBytes.trimmed(bytes[lower..<upper], where: HTTPBytes.isOWS)
                try validateValue(folded)
                if !folded.isEmpty {
                    if !values[values.count - 1].isEmpty { values[values.count - 1].append(0x20) }
                    values[values.count - 1].append(contentsOf: folded)
                }
            } else {
                guard let colon = bytes[lower..<upper].firstIndex(of: UInt8(ascii: ":")) else {
                    let shown = Self.text(bytes[lower..<Swift.min(upper, lower + 60)])
                    throw malformed(
                        "The \(section) line '\(shown)' has no colon; every field line is `name: value` (RFC 9112 "
                            + "§5). Make sure an empty line separates the header fields from the body, and "
                            + "\(Self.curlHint).",
                        at: lower
                    )
                }
                guard colon > lower else {
                    throw malformed(
                        "A \(section) line starts with a colon, so its field name is empty; every field line is "
                            + "`name: value` with a token name (RFC 9112 §5).",
                        at: lower
                    )
                }
                if HTTPBytes.isOWS(bytes[colon - 1]) {
                    var nameEnd = colon
                    while nameEnd > lower, HTTPBytes.isOWS(bytes[nameEnd - 1]) { nameEnd -= 1 }
                    let name = Self.text(bytes[lower..<nameEnd])
                    throw malformed(
                        "The field '\(name)' has whitespace between its name and the colon, which RFC 9112 §5.1 "
                            + "forbids (it enables request smuggling); remove the whitespace before the colon.",
                        at: nameEnd
                    )
                }
                if let bad = bytes[lower..<colon].firstIndex(where: { !HTTPBytes.isToken($0) }) {
                    let name = Self.text(bytes[lower..<colon])
                    throw malformed(
                        "The field name '\(name)' contains the byte 0x\(Self.hex(bytes[bad])), which is not allowed "
                            + "in a token (RFC 9110 §5.1); names are letters, digits and !#$%&'*+-.^_`|~.",
                        at: bad
                    )
                }
                guard names.count < maxHeaderFields else {
                    throw error(
                        .limitExceeded,
                        "The \(section) has more than maxHeaderFields (\(maxHeaderFields)) fields; raise "
                            + "`RawMessageLimits.maxHeaderFields` if the response is genuine.",
                        at: lower
                    )
                }
                let value = HTTPBytes.trimmed(bytes[colon + 1..<upper], where: HTTPBytes.isOWS)
                try validateValue(value)
                names.append(lower..<colon)
                values.append(Array(value))
                offsets.append(lower)
            }
            if !line.terminated { break }
        }

        var fields: [HTTPHeaderFields.Field] = []
        fields.reserveCapacity(names.count)
        for (name, value) in zip(names, values) {
            fields.append(HTTPHeaderFields.Field(name: Self.text(bytes[name]), value: Self.text(value[...])))
        }
        return FieldSection(fields: HTTPHeaderFields(fields), offsets: offsets, end: position)
    }

    /// Rejects NUL and bare CR in a field value (RFC 9110 §5.5; RFC 9112 §2.2).
    func validateValue(_ value: ArraySlice<UInt8>) throws(SerializationError) {
        guard let bad = value.firstIndex(where: { $0 == 0x00 || $0 == 0x0D }) else { return }
        let what = bytes[bad] == 0 ? "a NUL byte" : "a bare CR (not followed by LF)"
        throw error(
            .malformedMessage,
            "A field value contains \(what), which RFC 9110 §5.5 and RFC 9112 §2.2 do not allow; \(Self.curlHint), "
                + "and do not convert line endings by hand.",
            at: bad
        )
    }

    // MARK: Body

    func readToEnd(from start: Int, into response: inout Response) throws(SerializationError) {
        let lower = Swift.min(start, bytes.count)
        guard bytes.count - lower <= maxBodyBytes else {
            response.body = Data(bytes[lower..<lower + maxBodyBytes])
            throw error(
                .limitExceeded,
                "The body is larger than maxBodyBytes (\(maxBodyBytes)); raise `RawMessageLimits.maxBodyBytes` to "
                    + "accept bodies this large.",
                at: lower + maxBodyBytes,
                response: response
            )
        }
        response.body = Data(bytes[lower...])
    }

    /// Whether the body starts like chunked framing: a line of hexadecimal digits, optional whitespace and an
    /// optional `;` chunk extension, ended by a line end (RFC 9112 §7.1.1). Also true for an empty body, which is a
    /// truncated chunked body.
    ///
    /// When it does not, the body was saved already decoded (what `curl -si` does while keeping the
    /// `Transfer-Encoding: chunked` field) and is taken as it is.
    func startsWithChunkFraming(at start: Int) -> Bool {
        guard start < bytes.count else { return true }
        guard let line = line(from: start, searchEnd: limitEnd(from: start, length: 1024)), line.terminated else {
            return false
        }
        var index = line.content.lowerBound
        while index < line.content.upperBound, Self.hexValue(bytes[index]) != nil { index += 1 }
        guard index > line.content.lowerBound else { return false }
        while index < line.content.upperBound, HTTPBytes.isOWS(bytes[index]) { index += 1 }
        return index == line.content.upperBound || bytes[index] == UInt8(ascii: ";")
    }

    /// Decodes the chunked transfer coding (RFC 9112 §7.1) and reads the trailer section into `response.trailers`.
    ///
    /// A body whose first line only looks like a chunk size (`cafe`, `123`) is what `curl -si` saves: the chunking
    /// decoded, the `Transfer-Encoding: chunked` field kept. When the first chunk does not fit the data and the data
    /// does not end the way chunked framing ends (the last chunk's blank line), the error says that, and how to fix
    /// the file, rather than suggesting the data was cut off.
    func decodeChunked(from start: Int, into response: inout Response) throws(SerializationError) {
        do {
            try decodeChunkedStrictly(from: start, into: &response)
        } catch {
            // Only when the very first chunk fails: it does not fit the data, or what follows it is not framing.
            guard error.code == .truncatedBody || error.code == .malformedMessage, !endsWithBlankLine,
                let line = line(from: start, searchEnd: limitEnd(from: start, length: 1024))
            else { throw error }
            var size = 0
            var index = line.content.lowerBound
            while index < line.content.upperBound, let digit = Self.hexValue(bytes[index]), size < Int.max >> 8 {
                size = size << 4 | digit
                index += 1
            }
            let firstChunkEnd = line.next.addingReportingOverflow(size).partialValue
            guard firstChunkEnd >= bytes.count || (error.offset ?? 0) <= firstChunkEnd + 2 else { throw error }
            let shown = Self.text(bytes[line.content.lowerBound..<Swift.min(line.content.upperBound, start + 40)])
            var explained = error
            let saved =
                "its first line '\(shown)' only looks like a chunk size: `curl -si` saves bodies that way, decoding "
                + "the chunking but keeping the `Transfer-Encoding: chunked` field. Then delete that line from the "
                + "file, or save the response with `curl -si --raw URL > case.http` to keep the framing."
            if error.code == .truncatedBody {
                explained.message =
                    "The chunked body is truncated: its first chunk announces \(size) bytes, more than the data holds, "
                    + "and the data does not end with the last chunk `0` and a blank line. Either the data was cut "
                    + "off (check that the file is complete), or the body is not chunked at all and " + saved
            } else {
                explained.message =
                    "The body is not chunked framing although the header says `Transfer-Encoding: chunked` (RFC 9112 "
                    + "§7.1): after its first chunk comes no chunk-size line, and the data does not end with the last "
                    + "chunk `0` and a blank line. Most likely " + saved
            }
            throw explained
        }
    }

    /// Whether the message ends with an empty line, as complete chunked framing does (the last chunk, optional
    /// trailer fields, then CRLF).
    var endsWithBlankLine: Bool {
        let count = bytes.count
        if count >= 2 && bytes[count - 1] == 0x0A && bytes[count - 2] == 0x0A { return true }
        return count >= 4 && bytes[count - 1] == 0x0A && bytes[count - 2] == 0x0D && bytes[count - 3] == 0x0A
    }

    /// ``decodeChunked(from:into:)`` without the explanation for de-chunked bodies.
    private func decodeChunkedStrictly(from start: Int, into response: inout Response) throws(SerializationError) {
        var body = Data()
        var position = start
        let rawHint =
            "curl decodes chunked bodies but keeps the `Transfer-Encoding: chunked` field, so save chunked "
            + "responses with `curl -si --raw URL > case.http`, or delete the Transfer-Encoding line from the file"

        while true {
            guard position < bytes.count else {
                response.body = body
                throw error(
                    .truncatedBody,
                    "The chunked body is truncated: the data ends after \(body.count) decoded bytes, before the last "
                        + "chunk (`0`) that ends a chunked body (RFC 9112 §7.1); the data was cut off, so "
                        + "\(Self.curlHint) and check that the file is complete.",
                    at: position,
                    response: response
                )
            }
            guard let line = line(from: position, searchEnd: limitEnd(from: position, length: maxHeaderBytes)) else {
                response.body = body
                throw error(
                    .limitExceeded,
                    "A chunk-size line is longer than maxHeaderBytes (\(maxHeaderBytes) bytes); this is not chunked "
                        + "framing: \(rawHint).",
                    at: position,
                    response: response
                )
            }
            // chunk-size = 1*HEXDIG, then chunk extensions (ignored), RFC 9112 §7.1.1.
            var index = line.content.lowerBound
            let end = line.content.upperBound
            var size = 0
            while index < end, let digit = Self.hexValue(bytes[index]) {
                let (shifted, overflow) = size.multipliedReportingOverflow(by: 16)
                guard !overflow else {
                    response.body = body
                    throw error(
                        .malformedMessage,
                        "A chunk size overflows: '\(Self.text(bytes[line.content.lowerBound..<end].prefix(40)))' is "
                            + "too large to be a byte count; the body is not valid chunked framing (RFC 9112 §7.1).",
                        at: line.content.lowerBound,
                        response: response
                    )
                }
                size = shifted | digit
                index += 1
            }
            guard index > line.content.lowerBound else {
                response.body = body
                let shown = Self.text(bytes[line.content.lowerBound..<Swift.min(end, line.content.lowerBound + 40)])
                throw error(
                    .malformedMessage,
                    "Expected a hexadecimal chunk size but found '\(shown)': the body does not follow the chunked "
                        + "framing its Transfer-Encoding announces (RFC 9112 §7.1); \(rawHint).",
                    at: line.content.lowerBound,
                    response: response
                )
            }
            while index < end, HTTPBytes.isOWS(bytes[index]) { index += 1 }
            guard index == end || bytes[index] == UInt8(ascii: ";") else {
                response.body = body
                throw error(
                    .malformedMessage,
                    "A chunk size is followed by the byte 0x\(Self.hex(bytes[index])) instead of a line end or a "
                        + "`;` chunk extension (RFC 9112 §7.1.1); \(rawHint).",
                    at: index,
                    response: response
                )
            }
            position = line.next

            if size == 0 {
                response.body = body
                // last-chunk, then the trailer section (RFC 9112 §7.1.2).
                let section = try parseFieldSection(
                    from: position, searchEnd: limitEnd(from: position, length: maxHeaderBytes), isTrailer: true)
                response.trailers = section.fields
                return
            }
            guard line.terminated else {
                response.body = body
                throw error(
                    .truncatedBody,
                    "The chunked body is truncated inside a chunk-size line, after \(body.count) decoded bytes; the "
                        + "data was cut off, so \(Self.curlHint) and check that the file is complete.",
                    at: bytes.count,
                    response: response
                )
            }
            guard size <= maxBodyBytes - body.count else {
                response.body = body
                throw error(
                    .limitExceeded,
                    "The chunked body is larger than maxBodyBytes (\(maxBodyBytes)): a chunk of \(size) bytes follows "
                        + "\(body.count) decoded bytes; raise `RawMessageLimits.maxBodyBytes` to accept bodies this "
                        + "large.",
                    at: line.content.lowerBound,
                    response: response
                )
            }
            let available = bytes.count - position
            guard available >= size else {
                body.append(contentsOf: bytes[position...])
                response.body = body
                throw error(
                    .truncatedBody,
                    "The chunked body is truncated: a chunk announces \(size) bytes but only \(available) arrived; "
                        + "the data was cut off, so \(Self.curlHint) and check that the file is complete.",
                    at: bytes.count,
                    response: response
                )
            }
            body.append(contentsOf: bytes[position..<position + size])
            position += size
            // The chunk data ends with CRLF (or a bare LF).
            if position < bytes.count, bytes[position] == 0x0A {
                position += 1
            } else if position + 1 < bytes.count, bytes[position] == 0x0D, bytes[position + 1] == 0x0A {
                position += 2
            } else if position >= bytes.count || (position + 1 == bytes.count && bytes[position] == 0x0D) {
                response.body = body
                throw error(
                    .truncatedBody,
                    "The chunked body is truncated after \(body.count) decoded bytes: the data ends before the line "
                        + "end that follows a chunk and the last chunk (`0`); the data was cut off, so "
                        + "\(Self.curlHint) and check that the file is complete.",
                    at: bytes.count,
                    response: response
                )
            } else {
                response.body = body
                throw error(
                    .malformedMessage,
                    "A chunk is longer than its size (\(size) bytes) says: no line end follows its data (RFC 9112 "
                        + "§7.1); \(rawHint).",
                    at: position,
                    response: response
                )
            }
        }
    }

    // MARK: Helpers shared with `rawMessage`

    /// Whether a response with this status to this method can have a body (RFC 9112 §6.3, points 1).
    static func canHaveBody(status: Int, requestMethod: String?) -> Bool {
        !(requestMethod == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304)
    }

    /// The transfer codings of every `Transfer-Encoding` field, in order, trimmed, empty list elements dropped.
    static func transferCodings(in headers: HTTPHeaderFields) -> [String] {
        headers.values(for: "Transfer-Encoding").flatMap { value in
            value.split(separator: ",").map { $0.trimmingHTTPWhitespace() }.filter { !$0.isEmpty }
        }
    }

    /// Whether the final transfer coding is `chunked` (case-insensitive, parameters ignored; RFC 9112 §6.3, §7).
    static func endsWithChunked(_ codings: [String]) -> Bool {
        guard let last = codings.last else { return false }
        return HTTPBytes.equalsIgnoringASCIICase(String(last.prefix { $0 != ";" }).trimmingHTTPWhitespace(), "chunked")
    }

    /// `text` as UTF-8 with CR, LF and NUL replaced by spaces.
    static func sanitized(_ text: String) -> [UInt8] {
        text.utf8.map { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 ? 0x20 : $0 }
    }

    /// Bytes as text: UTF-8 when valid, otherwise ISO-8859-1 (each byte one scalar, RFC 9110 §5.5 `obs-text`).
    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        let utf8 = String(decoding: bytes, as: UTF8.self)
        if utf8.utf8.elementsEqual(bytes) { return utf8 }
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }

    static func digitValue(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }

    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// The standard reason phrase for `status` (RFC 9110 §15), or an empty string.
    static func standardReasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 103: "Early Hints"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 203: "Non-Authoritative Information"
        case 204: "No Content"
        case 205: "Reset Content"
        case 206: "Partial Content"
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 305: "Use Proxy"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 407: "Proxy Authentication Required"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 425: "Too Early"
        case 426: "Upgrade Required"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 451: "Unavailable For Legal Reasons"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: ""
        }
    }
}
