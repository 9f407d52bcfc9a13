import DecantCore

/// The named fields of one WARC record that the reader needs, parsed from its head (the version line, the fields and
/// the blank line that ends them).
struct WARCRecordHead: Sendable {
    /// `WARC-Type`, as written (compared without regard to case).
    var type: String
    /// `Content-Length`: the size of the block in bytes.
    var contentLength: Int
    /// `WARC-Target-URI`, as written.
    var targetURI: String?
    /// `WARC-Truncated`, as written.
    var truncated: String?
    /// `Content-Type` of the block, as written.
    var contentType: String?

    /// Whether the record is a `response` record.
    var isResponse: Bool { type.lowercased() == "response" }

    /// What went wrong in a head: the error's code, its message and the offset of the bad byte within the head.
    struct Problem: Error {
        var code: SerializationError.Code
        var message: String
        var offset: Int
    }

    /// The fields the reader reads.
    private enum Known: Int {
        case type, contentLength, targetURI, truncated, contentType

        /// The field a name is, when it is one of these (ASCII letters compared without regard to case).
        init?(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
            switch range.count {
            case 9 where WARCRecordHead.equalsIgnoringCase(bytes, range, "WARC-Type"): self = .type
            case 14 where WARCRecordHead.equalsIgnoringCase(bytes, range, "Content-Length"): self = .contentLength
            case 15 where WARCRecordHead.equalsIgnoringCase(bytes, range, "WARC-Target-URI"): self = .targetURI
            case 14 where WARCRecordHead.equalsIgnoringCase(bytes, range, "WARC-Truncated"): self = .truncated
            case 12 where WARCRecordHead.equalsIgnoringCase(bytes, range, "Content-Type"): self = .contentType
            default: return nil
            }
        }
    }

    /// Parses a head: `bytes` runs from the version line to the CRLF CRLF that ends the fields, both included.
    ///
    /// Lines end in CRLF (a bare LF is accepted inside the head); a line that starts with a space or a tab continues
    /// the previous field's value after one space (ISO 28500 §4, as in RFC 2616's headers). Names are compared
    /// without regard to case; a field other than Content-Length that is repeated counts once, the first time. Work is
    /// linear in the head, in one pass.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(Problem) -> WARCRecordHead {
        var values: [[UInt8]?] = [nil, nil, nil, nil, nil]
        var lengthOffset = 0
        var versionEnd = -1
        var current: Known?
        var hasField = false
        var start = 0
        var index = 0
        let count = bytes.count
        while index < count {
            guard bytes[index] == 0x0A else {
                index += 1
                while count - index >= 8,
                    !WARCRecordFramer.hasLineEnd(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                {
                    index += 8
                }
                continue
            }
            var end = index
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            let line = start..<end
            start = index + 1
            index += 1
            if versionEnd < 0 {
                try checkVersion(bytes, line)
                versionEnd = line.upperBound
                continue
            }
            if line.isEmpty { continue }
            let first = bytes[line.lowerBound]
            if first == 0x20 || first == 0x09 {
                guard hasField else {
                    throw Problem(
                        code: .invalidBody,
                        message: "its first field line starts with whitespace, so it continues no field",
                        offset: line.lowerBound)
                }
                if let current, values[current.rawValue] != nil {
                    let more = trimmed(bytes, line)
                    if !more.isEmpty {
                        if values[current.rawValue]?.isEmpty == false { values[current.rawValue]?.append(0x20) }
                        values[current.rawValue]?.append(contentsOf: bytes[more])
                    }
                }
                continue
            }
            // One loop over the name, up to the colon: every byte a visible ASCII character.
            var colon = line.lowerBound
            while colon < line.upperBound, bytes[colon] != UInt8(ascii: ":") {
                let byte = bytes[colon]
                if byte <= 0x20 || byte >= 0x7F {
                    throw Problem(
                        code: .invalidBody,
                        message: "the line '\(shown(bytes, line))' is not a field (`Name: value`): its name holds "
                            + "the byte 0x\(String(byte, radix: 16, uppercase: true)), which a name may not",
                        offset: colon)
                }
                colon += 1
            }
            guard colon < line.upperBound, colon > line.lowerBound else {
                throw Problem(
                    code: .invalidBody,
                    message: "the line '\(shown(bytes, line))' is not a field (`Name: value`)",
                    offset: line.lowerBound)
            }
            hasField = true
            current = Known(bytes, line.lowerBound..<colon)
            guard let known = current else { continue }
            let valueRange = trimmed(bytes, colon + 1..<line.upperBound)
            if let previous = values[known.rawValue] {
                if known == .contentLength, !equals(previous, bytes, valueRange) {
                    throw Problem(
                        code: .invalidBody, message: "it has two different Content-Length fields",
                        offset: line.lowerBound)
                }
                current = nil  // a repeat: its continuation lines are ignored with it
                continue
            }
            values[known.rawValue] = copy(bytes, valueRange)
            if known == .contentLength { lengthOffset = line.lowerBound }
        }
        if versionEnd < 0 { throw Problem(code: .invalidBody, message: "it has no version line", offset: 0) }

        guard let typeBytes = values[Known.type.rawValue], !typeBytes.isEmpty else {
            throw Problem(
                code: .invalidBody,
                message: "it has no WARC-Type field, which every record has (ISO 28500 §5.5)",
                offset: versionEnd)
        }
        guard let lengthBytes = values[Known.contentLength.rawValue] else {
            throw Problem(
                code: .invalidBody,
                message: "it has no Content-Length field, so the size of its block is unknown (ISO 28500 §5.3)",
                offset: versionEnd)
        }
        guard let length = parseLength(lengthBytes) else {
            throw Problem(
                code: .invalidBody,
                message: "its Content-Length '\(String(decoding: lengthBytes.prefix(40), as: UTF8.self))' is not "
                    + "a number of bytes (at most 18 decimal digits)",
                offset: lengthOffset)
        }
        func text(_ field: Known) -> String? { values[field.rawValue].map { String(decoding: $0, as: UTF8.self) } }
        return WARCRecordHead(
            type: String(decoding: typeBytes, as: UTF8.self), contentLength: length, targetURI: text(.targetURI),
            truncated: text(.truncated).flatMap { $0.isEmpty ? nil : $0 }, contentType: text(.contentType))
    }

    /// Accepts `WARC/1.0` and `WARC/1.1`.
    private static func checkVersion(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) throws(Problem) {
        let version = trimmed(bytes, line)
        if version.count == 8, equals(Array("WARC/1.".utf8), bytes, version.lowerBound..<version.upperBound - 1) {
            let minor = bytes[version.upperBound - 1]
            if minor == UInt8(ascii: "0") || minor == UInt8(ascii: "1") { return }
        }
        let text = shown(bytes, line)
        let digits = bytes[version].dropFirst(5)
        let looksLikeAVersion =
            version.count > 5 && equals(Array("WARC/".utf8), bytes, version.lowerBound..<version.lowerBound + 5)
            && digits.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }
        if looksLikeAVersion {
            throw Problem(
                code: .unsupportedFeature,
                message: "its version '\(text)' is not one this reader knows (WARC/1.0 and WARC/1.1); convert "
                    + "older archives with a tool such as warcio's `warcio recompress`",
                offset: line.lowerBound)
        }
        throw Problem(
            code: .invalidBody,
            message: "its version line '\(text)' is not `WARC/1.0` or `WARC/1.1`", offset: line.lowerBound)
    }

    /// A decimal byte count of at most 18 digits.
    private static func parseLength(_ bytes: [UInt8]) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// The bytes in `range`, copied one by one (no generic slice code on this per-record path).
    private static func copy(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: range.count) { buffer, initialized in
            if let base = bytes.baseAddress, let target = buffer.baseAddress, !range.isEmpty {
                target.initialize(
                    from: (base + range.lowerBound).assumingMemoryBound(to: UInt8.self), count: range.count)
            }
            initialized = range.count
        }
    }

    /// Whether `value` holds the bytes in `range`.
    private static func equals(_ value: [UInt8], _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        guard value.count == range.count else { return false }
        var index = 0
        while index < value.count {
            if value[index] != bytes[range.lowerBound + index] { return false }
            index += 1
        }
        return true
    }

    /// `range` without spaces and tabs at either end.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    /// Whether the bytes in `range` spell `name`, ASCII letters compared without regard to case.
    fileprivate static func equalsIgnoringCase(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ name: StaticString
    ) -> Bool {
        guard range.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        var index = 0
        while index < range.count {
            let lhs = bytes[range.lowerBound + index]
            let rhs = expected[index]
            let folded = rhs | 0x20
            guard lhs == rhs || (lhs | 0x20 == folded && folded >= 0x61 && folded <= 0x7A) else { return false }
            index += 1
        }
        return true
    }

    /// At most 60 bytes of `range` as text, for messages.
    static func shown(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        let upper = min(range.upperBound, range.lowerBound + 60)
        let text = String(decoding: bytes[range.lowerBound..<upper], as: UTF8.self)
        return upper < range.upperBound ? text + "…" : text
    }
}
