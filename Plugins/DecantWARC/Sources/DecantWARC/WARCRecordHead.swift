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
    private enum Known: CaseIterable {
        case type, contentLength, targetURI, truncated, contentType

        var name: String {
            switch self {
            case .type: "WARC-Type"
            case .contentLength: "Content-Length"
            case .targetURI: "WARC-Target-URI"
            case .truncated: "WARC-Truncated"
            case .contentType: "Content-Type"
            }
        }
    }

    /// Parses a head: `bytes` runs from the version line to the CRLF CRLF that ends the fields, both included.
    ///
    /// Lines end in CRLF (a bare LF is accepted inside the head); a line that starts with a space or a tab continues
    /// the previous field's value after one space (ISO 28500 §4, as in RFC 2616's headers). Names are compared
    /// without regard to case. Work is linear in the head.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(Problem) -> WARCRecordHead {
        var lines: [Range<Int>] = []
        var start = 0
        for index in 0..<bytes.count where bytes[index] == 0x0A {
            var end = index
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            lines.append(start..<end)
            start = index + 1
        }
        guard let versionLine = lines.first else {
            throw Problem(code: .invalidBody, message: "it has no version line", offset: 0)
        }
        try checkVersion(bytes, versionLine)

        var values: [Known: [UInt8]] = [:]
        var seen: [Known: Int] = [:]
        var current: Known?
        var hasField = false
        for line in lines.dropFirst() where !line.isEmpty {
            let first = bytes[line.lowerBound]
            if first == 0x20 || first == 0x09 {
                guard hasField else {
                    throw Problem(
                        code: .invalidBody,
                        message: "its first field line starts with whitespace, so it continues no field",
                        offset: line.lowerBound)
                }
                if let current {
                    let more = trimmed(bytes, line)
                    if !more.isEmpty {
                        if values[current]?.isEmpty == false { values[current]?.append(0x20) }
                        values[current]?.append(contentsOf: bytes[more])
                    }
                }
                continue
            }
            guard let colon = bytes[line].firstIndex(of: UInt8(ascii: ":")), colon > line.lowerBound else {
                throw Problem(
                    code: .invalidBody,
                    message: "the line '\(shown(bytes, line))' is not a field (`Name: value`)",
                    offset: line.lowerBound)
            }
            if let bad = bytes[line.lowerBound..<colon].firstIndex(where: { $0 <= 0x20 || $0 >= 0x7F }) {
                throw Problem(
                    code: .invalidBody,
                    message: "the field name '\(shown(bytes, line.lowerBound..<colon))' holds the byte "
                        + "0x\(String(bytes[bad], radix: 16, uppercase: true)), which a name may not",
                    offset: bad)
            }
            hasField = true
            current = Known.allCases.first { equalsIgnoringCase(bytes, line.lowerBound..<colon, $0.name) }
            guard let current else { continue }
            let value = Array(bytes[trimmed(bytes, colon + 1..<line.upperBound)])
            if let previous = values[current], current == .contentLength, previous != value {
                throw Problem(
                    code: .invalidBody,
                    message: "it has two different Content-Length fields", offset: line.lowerBound)
            }
            // A repeated field other than Content-Length: the first one counts.
            if values[current] == nil {
                values[current] = value
                seen[current] = line.lowerBound
            }
        }

        guard let typeBytes = values[.type], !typeBytes.isEmpty else {
            throw Problem(
                code: .invalidBody,
                message: "it has no WARC-Type field, which every record has (ISO 28500 §5.5)",
                offset: versionLine.upperBound)
        }
        guard let lengthBytes = values[.contentLength] else {
            throw Problem(
                code: .invalidBody,
                message: "it has no Content-Length field, so the size of its block is unknown (ISO 28500 §5.3)",
                offset: versionLine.upperBound)
        }
        guard let length = parseLength(lengthBytes) else {
            throw Problem(
                code: .invalidBody,
                message: "its Content-Length '\(String(decoding: lengthBytes.prefix(40), as: UTF8.self))' is not "
                    + "a number of bytes (at most 18 decimal digits)",
                offset: seen[.contentLength] ?? versionLine.upperBound)
        }
        func text(_ field: Known) -> String? { values[field].map { String(decoding: $0, as: UTF8.self) } }
        return WARCRecordHead(
            type: String(decoding: typeBytes, as: UTF8.self), contentLength: length, targetURI: text(.targetURI),
            truncated: text(.truncated).flatMap { $0.isEmpty ? nil : $0 }, contentType: text(.contentType))
    }

    /// Accepts `WARC/1.0` and `WARC/1.1`.
    private static func checkVersion(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) throws(Problem) {
        let version = bytes[trimmed(bytes, line)]
        if version.elementsEqual("WARC/1.0".utf8) || version.elementsEqual("WARC/1.1".utf8) { return }
        let text = shown(bytes, line)
        let looksLikeAVersion =
            version.starts(with: "WARC/".utf8)
            && version.dropFirst(5).allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }
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

    /// `range` without spaces and tabs at either end.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    /// Whether the bytes in `range` spell `name`, ASCII letters compared without regard to case.
    private static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ name: String)
        -> Bool
    {
        guard range.count == name.utf8.count else { return false }
        return zip(bytes[range], name.utf8).allSatisfy { lhs, rhs in
            lhs == rhs || (lhs | 0x20 == rhs | 0x20 && (rhs | 0x20) >= 0x61 && (rhs | 0x20) <= 0x7A)
        }
    }

    /// At most 60 bytes of `range` as text, for messages.
    static func shown(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        let upper = min(range.upperBound, range.lowerBound + 60)
        let text = String(decoding: bytes[range.lowerBound..<upper], as: UTF8.self)
        return upper < range.upperBound ? text + "…" : text
    }
}
