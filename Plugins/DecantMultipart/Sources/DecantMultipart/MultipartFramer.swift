import DecantCore

/// The framing of one multipart body (RFC 2046 §5.1.1): where the preamble, each part's header fields and body, and
/// the epilogue are, as byte offsets into the bytes that were framed. Nothing is decoded here.
struct MultipartFraming {
    /// One body part: its header fields and where its body is.
    struct RawPart {
        /// The offset where the part (its header block) starts.
        var start: Int
        /// The header fields, unfolded, in order.
        var fields: [HTTPHeaderFields.Field]
        /// The body's offsets.
        var body: Range<Int>
    }

    /// The preamble's offsets, when there is a non-empty one.
    var preamble: Range<Int>?
    /// The epilogue's offsets, when there is a non-empty one.
    var epilogue: Range<Int>?
    /// The parts, in order.
    var parts: [RawPart] = []
}

/// Finds the delimiters of a multipart body and reads each part's header block, in one pass: every byte is looked at
/// a bounded number of times (a delimiter is only compared at the start of a line, and a comparison stops at the first
/// difference, at the latest at the end of that line), so framing is linear in the body size.
struct MultipartFramer {
    /// The bytes framed.
    let bytes: UnsafeRawBufferPointer
    /// `--` followed by the boundary.
    let dashBoundary: [UInt8]
    /// The boundary, for messages.
    let boundary: String
    /// The limits.
    let options: MultipartParsingOptions
    /// The offset of `bytes` in the response body, added to every error offset.
    let base: Int
    /// The media type, for errors.
    let mediaType: MediaType?

    /// A delimiter line: whether it is the close delimiter, and where the line after it starts.
    struct Delimiter {
        /// Where the line break before the delimiter starts (the CR of CRLF, or the LF), or 0 for the first line.
        var lineBreakStart: Int
        /// Whether this is the close delimiter (`--boundary--`).
        var isClose: Bool
        /// The offset after the delimiter line's line break (the end of the bytes when it has none).
        var next: Int
    }

    /// Frames the bytes; `partCount` counts parts over every nesting level, against ``MultipartParsingOptions/maxParts``.
    func frame(partCount: inout Int) throws(SerializationError) -> MultipartFraming {
        var framing = MultipartFraming()
        let count = bytes.count
        var current: Delimiter
        if let first = delimiter(at: 0, lineBreakStart: 0) {
            current = first
        } else if let first = nextDelimiter(from: 0, contentStart: 0) {
            current = first
            if first.lineBreakStart > 0 { framing.preamble = 0..<first.lineBreakStart }
        } else {
            throw error(
                "The multipart body has no delimiter line '--\(boundary)', so it has no parts. Check that the "
                    + "body was sent with the boundary of its Content-Type, each delimiter at the start of a line.",
                offset: 0)
        }
        if current.isClose {
            throw error(
                "The multipart body closes ('--\(boundary)--') before its first part, but RFC 2046 §5.1.1 requires "
                    + "at least one body part. Send at least one part.",
                offset: current.lineBreakStart)
        }
        while !current.isClose {
            let start = current.next
            // Searching from the line break that ends the delimiter line finds a delimiter on the very next line too
            // (an empty part that shares its line break with the delimiter before it).
            guard let found = nextDelimiter(from: max(start - 1, 0), contentStart: start) else {
                throw error(
                    "The multipart body ends without its close delimiter '--\(boundary)--': it is truncated, or "
                        + "its last part never ends. Send the whole body, ending with the close delimiter line.",
                    offset: count)
            }
            partCount += 1
            if partCount > options.maxParts {
                throw SerializationError(
                    code: .limitExceeded,
                    message: "The multipart body has more than \(options.maxParts) parts, the limit of the option "
                        + "'maxParts'. Raise maxParts to accept it.",
                    mediaType: mediaType, serializerID: MediaFormat.multipart.id, offset: base + start)
            }
            let end = max(found.lineBreakStart, start)
            framing.parts.append(try readPart(start: start, end: end))
            current = found
        }
        if current.next < count { framing.epilogue = current.next..<count }
        return framing
    }

    /// The delimiter line starting at `offset`, or `nil` when none starts there: `--boundary`, optionally `--`, then
    /// only spaces and tabs (transport padding) up to the line break or the end. A line that merely starts with
    /// `--boundary` followed by anything else is not a delimiter.
    func delimiter(at offset: Int, lineBreakStart: Int) -> Delimiter? {
        let count = bytes.count
        let length = dashBoundary.count
        guard offset + length <= count else { return nil }
        var index = 0
        while index < length {
            guard bytes[offset + index] == dashBoundary[index] else { return nil }
            index += 1
        }
        var position = offset + length
        var isClose = false
        if position + 1 < count, bytes[position] == 0x2D, bytes[position + 1] == 0x2D {
            isClose = true
            position += 2
        }
        while position < count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
        if position == count { return Delimiter(lineBreakStart: lineBreakStart, isClose: isClose, next: count) }
        if bytes[position] == 0x0A {
            return Delimiter(lineBreakStart: lineBreakStart, isClose: isClose, next: position + 1)
        }
        if bytes[position] == 0x0D, position + 1 < count, bytes[position + 1] == 0x0A {
            return Delimiter(lineBreakStart: lineBreakStart, isClose: isClose, next: position + 2)
        }
        return nil
    }

    /// The first delimiter on a line after an LF at or after `from`; the CR before that LF belongs to the delimiter
    /// when it is not before `contentStart`.
    func nextDelimiter(from: Int, contentStart: Int) -> Delimiter? {
        let count = bytes.count
        var index = from
        while index < count {
            if bytes[index] == 0x0A {
                let lineBreakStart = index > contentStart && bytes[index - 1] == 0x0D ? index - 1 : index
                if let found = delimiter(at: index + 1, lineBreakStart: lineBreakStart) { return found }
            }
            index += 1
        }
        return nil
    }

    /// Reads the header block of the part in `start..<end`: RFC 5322 fields, folded lines unfolded, up to an empty
    /// line. A part may have no header fields (it starts with an empty line); a line that is not a field ends the
    /// header block too (it starts the body, as lenient readers such as Python's `email` do).
    func readPart(start: Int, end: Int) throws(SerializationError) -> MultipartFraming.RawPart {
        var fields: [HTTPHeaderFields.Field] = []
        var pendingName: [UInt8] = []
        var pendingValue: [UInt8] = []
        var hasPending = false
        var position = start
        var bodyStart = end
        func flush() {
            guard hasPending else { return }
            fields.append(
                HTTPHeaderFields.Field(
                    name: String(decoding: pendingName, as: UTF8.self),
                    value: String(decoding: Self.trimmed(pendingValue), as: UTF8.self)))
            hasPending = false
        }
        while position < end {
            var lineEnd = position
            let isContinuation = bytes[position] == 0x20 || bytes[position] == 0x09
            var colon: Int? = nil
            if !isContinuation {
                // A field name: token bytes up to a colon. Anything else ends the header block.
                var index = position
                while index < end, HeaderSyntax.isTokenByte(bytes[index]) { index += 1 }
                if index > position, index < end, bytes[index] == UInt8(ascii: ":") { colon = index }
            }
            while lineEnd < end, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let next = lineEnd < end ? lineEnd + 1 : end
            var contentEnd = lineEnd
            if contentEnd > position, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            if contentEnd == position {
                bodyStart = next
                break
            }
            guard isContinuation ? hasPending : colon != nil else {
                bodyStart = position
                break
            }
            if next - start > options.maxPartHeaderBytes {
                throw SerializationError(
                    code: .limitExceeded,
                    message: "A part's header block is longer than \(options.maxPartHeaderBytes) bytes, the limit of "
                        + "the option 'maxPartHeaderBytes'. Raise maxPartHeaderBytes to accept it.",
                    mediaType: mediaType, serializerID: MediaFormat.multipart.id, offset: base + position)
            }
            if let colon {
                flush()
                pendingName = Array(UnsafeRawBufferPointer(rebasing: bytes[position..<colon]))
                pendingValue = Array(UnsafeRawBufferPointer(rebasing: bytes[(colon + 1)..<contentEnd]))
                hasPending = true
            } else {
                // Unfolding (RFC 5322 §2.2.3) removes the line break and keeps the whitespace after it.
                pendingValue += UnsafeRawBufferPointer(rebasing: bytes[position..<contentEnd])
            }
            position = next
        }
        flush()
        return MultipartFraming.RawPart(start: start, fields: fields, body: min(bodyStart, end)..<end)
    }

    /// `bytes` without leading and trailing spaces and tabs.
    static func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var lower = 0
        var upper = bytes.count
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return bytes[lower..<upper]
    }

    /// An `invalidBody` framing error at `offset` (in the bytes framed).
    func error(_ message: String, offset: Int) -> SerializationError {
        SerializationError(
            code: .invalidBody, message: message, mediaType: mediaType, serializerID: MediaFormat.multipart.id,
            offset: base + offset)
    }
}
