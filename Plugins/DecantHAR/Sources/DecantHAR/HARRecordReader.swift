public import DecantCore
import DecantJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The incremental reader of HAR 1.2 files (HTTP Archive): each element of `log.entries` becomes an
/// `ArchivedResponse` as soon as its last byte arrives.
///
/// The reader is a linear scanner over the JSON text: it follows strings (with their escapes), nesting, member names
/// and the punctuation between values, finds the top-level object's `log` member and that object's `entries` array
/// (members may come in any order), and keeps only the bytes of the entry being read, never the file. Each entry is
/// then parsed by DecantJSON's ``JSONParser`` and turned into a response (``HARResponseSerializer`` says how). Outside
/// the entries, numbers and literals are skipped as tokens without checking their spelling; everything else is
/// checked, and nothing outside an entry is kept, so a 100 MB `log.comment` costs no memory.
///
/// - An entry that cannot be read (not an object, no `response.status`, malformed JSON, more than
///   ``maxRecordBytes`` bytes) is still a record: an `ArchivedResponse` with its index and offset whose `response` is
///   the failure, so that reading goes on whatever the stream's `RecordErrorPolicy`. The bytes of an entry over the
///   limit are scanned but not kept.
/// - A file that is not a HAR file (not JSON, not an object, no `log` object, no `log.entries` array, bytes after
///   the object) throws `invalidBody` with the byte offset; nesting deeper than ``maxDepth`` throws `limitExceeded`;
///   a file that ends inside the document makes ``finish(into:)`` throw `truncatedBody`. These end the stream.
///
/// The reader never appends a `.failure` result itself: every entry is a `.success` record.
public struct HARRecordReader: RecordReader {
    /// The deepest nesting of objects and arrays in a HAR file by default: 512, counted from the top-level object
    /// (an entry's members start at depth 4).
    public static let defaultMaxDepth = 512

    /// The largest entry kept, in bytes of the file; a larger one is a failed record with code `limitExceeded`.
    public let maxRecordBytes: Int
    /// The deepest nesting of objects and arrays in the file, the top-level object being depth 1.
    public let maxDepth: Int
    /// The parser of each entry (its depth limit is ``maxDepth``).
    let parser: JSONParser

    /// What the scanner expects next, outside strings and tokens.
    private enum Expect {
        /// A value (at the start of the document, after `:` or after `,` in an array).
        case value
        /// A value or `]` (after `[`).
        case valueOrClose
        /// A member name (after `,` in an object).
        case key
        /// A member name or `}` (after `{`).
        case keyOrClose
        /// `:` after a member name.
        case colon
        /// `,` or the end of the container, after a value.
        case commaOrClose
        /// Nothing but whitespace: the top-level object is complete.
        case end
    }

    /// What an open container is to the scanner.
    private enum Role: UInt8 {
        case other = 0
        case top = 1
        case log = 2
        case entries = 3
    }

    /// What the last member name of the top-level or `log` object was.
    private enum Key {
        case other, log, entries
    }

    /// The longest member name kept to be compared with `log` and `entries` (escapes included).
    private static let maxKeyBytes = 64

    /// The number of bytes consumed before the current chunk.
    private var position = 0
    /// The open containers, innermost last: bit 0 set for an array, the role above it.
    private var stack: [UInt8] = []
    private var expect = Expect.value
    /// Whether the scanner is inside a string, and whether that string is a member name.
    private var inString = false
    private var stringIsKey = false
    /// Whether the previous byte in the string was a backslash.
    private var inEscape = false
    /// Whether the scanner is inside a number or literal.
    private var inToken = false
    /// Whether a value has started (bytes before it are whitespace or a UTF-8 byte order mark).
    private var started = false
    private var byteOrderMarkBytes = 0
    private var sawLog = false
    private var sawEntries = false
    /// The member name being read, when it matters (in the top-level or `log` object).
    private var capturingKey = false
    private var keyBytes: [UInt8] = []
    private var keyTooLong = false
    private var pendingKey = Key.other
    /// The entry being read.
    private var entryActive = false
    private var entryIndex = 0
    private var entryStart = 0
    private var entryBytes: [UInt8] = []
    private var entryTooLarge = false

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - maxRecordBytes: The largest entry kept, in bytes of the file.
    ///   - maxDepth: The deepest nesting of objects and arrays in the file (the top-level object is depth 1).
    public init(maxRecordBytes: Int = StreamOptions.defaultMaxRecordBytes, maxDepth: Int = defaultMaxDepth) {
        self.maxRecordBytes = max(0, maxRecordBytes)
        self.maxDepth = max(1, maxDepth)
        var options = JSONParsingOptions()
        options.maxDepth = self.maxDepth
        options.maxBytes = Int(UInt32.max)
        parser = JSONParser(options: options)
    }

    /// Feeds the next bytes of the file; appends a record for every entry they complete.
    ///
    /// - Throws: `SerializationError` when the bytes cannot be part of a HAR file (`invalidBody`) or nest too deep
    ///   (`limitExceeded`), with the byte offset.
    public mutating func consume(
        _ bytes: UnsafeRawBufferPointer, into records: inout [Result<ArchivedResponse, SerializationError>]
    ) throws(SerializationError) {
        let count = bytes.count
        guard count > 0 else { return }
        // Where the current entry's and member name's bytes start in this chunk.
        var entrySegment = entryActive ? 0 : -1
        var keySegment = capturingKey ? 0 : -1
        var index = 0
        while index < count {
            if inString {
                if inEscape {
                    inEscape = false
                    index += 1
                    continue
                }
                var scan = index
                while scan < count {
                    let byte = bytes[scan]
                    if byte == Self.quote || byte == Self.backslash { break }
                    scan += 1
                }
                index = scan
                if index == count { break }
                if bytes[index] == Self.backslash {
                    inEscape = true
                    index += 1
                    continue
                }
                inString = false
                if stringIsKey {
                    if capturingKey {
                        appendKey(bytes, from: keySegment, to: index)
                        keySegment = -1
                        capturingKey = false
                        pendingKey = classifyKey()
                    }
                    expect = .colon
                    index += 1
                } else {
                    index += 1
                    try valueEnded(at: index, in: bytes, entrySegment: &entrySegment, into: &records)
                }
                continue
            }
            let byte = bytes[index]
            if inToken {
                if Self.isTokenByte(byte) {
                    index += 1
                    continue
                }
                inToken = false
                try valueEnded(at: index, in: bytes, entrySegment: &entrySegment, into: &records)
                continue
            }
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                index += 1
                continue
            }
            let offset = position + index
            switch expect {
            case .end:
                throw invalidBody(
                    "The HAR file has bytes after its top-level object, at byte \(offset). A HAR file is one JSON "
                        + "object; remove what follows it.", at: offset)
            case .colon:
                guard byte == Self.colon else {
                    throw unexpected(byte, at: offset, expected: "':' after a member name")
                }
                expect = .value
                index += 1
            case .commaOrClose:
                if byte == Self.comma {
                    expect = stack.last.map { $0 & 1 == 1 } == true ? .value : .key
                    index += 1
                } else if byte == Self.closeBrace || byte == Self.closeBracket {
                    try close(byte, at: index, in: bytes, entrySegment: &entrySegment, into: &records)
                    index += 1
                } else {
                    throw unexpected(byte, at: offset, expected: "',' or the end of the object or array")
                }
            case .keyOrClose where byte == Self.closeBrace, .valueOrClose where byte == Self.closeBracket:
                try close(byte, at: index, in: bytes, entrySegment: &entrySegment, into: &records)
                index += 1
            case .key, .keyOrClose:
                guard byte == Self.quote else {
                    throw unexpected(byte, at: offset, expected: "a member name in quotes")
                }
                inString = true
                stringIsKey = true
                let role = stack.last.map { Role(rawValue: $0 >> 1) ?? .other } ?? .other
                if role == .top || role == .log {
                    capturingKey = true
                    keyBytes.removeAll(keepingCapacity: true)
                    keyTooLong = false
                    keySegment = index + 1
                }
                index += 1
            case .value, .valueOrClose:
                if !started, stack.isEmpty, offset < 3, offset == byteOrderMarkBytes,
                    byte == Self.byteOrderMark[offset]
                {
                    byteOrderMarkBytes += 1
                    index += 1
                    continue
                }
                try startValue(byte, at: index, entrySegment: &entrySegment)
                index += 1
            }
        }
        if entryActive, !entryTooLarge, entrySegment >= 0 {
            appendEntry(bytes, from: entrySegment, to: count)
        }
        if capturingKey, keySegment >= 0 {
            appendKey(bytes, from: keySegment, to: count)
        }
        position += count
    }

    /// The file ended: checks that the top-level object was complete.
    ///
    /// - Throws: `SerializationError`: `invalidBody` for a file with no JSON text; `truncatedBody` for one that ends
    ///   inside the document, naming the entry it cut when it cut one.
    public mutating func finish(
        into records: inout [Result<ArchivedResponse, SerializationError>]
    ) throws(SerializationError) {
        guard started else {
            throw invalidBody(
                "The body holds no JSON text. A HAR file is a JSON object with a 'log' member; check that the file "
                    + "is a HAR export.", at: position)
        }
        guard expect == .end else {
            let place =
                entryActive
                ? "inside entry \(entryIndex) of log.entries, which starts at byte \(entryStart)"
                : "with \(stack.count) object(s) or array(s) still open"
            throw SerializationError(
                code: .truncatedBody,
                message:
                    "The HAR file ends at byte \(position) \(place): it was cut short. The entries before it were "
                    + "read; export or download the file again to read the rest.",
                offset: position)
        }
    }

    // MARK: - Structure

    /// A value starts with `byte`: opens a container, a string or a token, and an entry when the value is one.
    private mutating func startValue(
        _ byte: UInt8, at index: Int, entrySegment: inout Int
    ) throws(SerializationError) {
        let offset = position + index
        let parent = stack.last.map { Role(rawValue: $0 >> 1) ?? .other }
        var role = Role.other
        switch parent {
        case nil:
            guard byte == Self.openBrace else {
                throw invalidBody(
                    "The body is not a HAR file: a HAR file is a JSON object with a 'log' member, but byte \(offset) "
                        + "is \(Self.describe(byte)). Check that the file is a HAR export (application/har+json).",
                    at: offset)
            }
            role = .top
        case .top where pendingKey == .log:
            guard byte == Self.openBrace else {
                throw invalidBody(
                    "The HAR file's 'log' member, at byte \(offset), is not an object. HAR 1.2 puts the archive in "
                        + "an object: {\"log\": {\"entries\": [...]}}.", at: offset)
            }
            role = .log
            sawLog = true
        case .log where pendingKey == .entries:
            guard byte == Self.openBracket else {
                throw invalidBody(
                    "The HAR file's 'log.entries' member, at byte \(offset), is not an array. HAR 1.2 lists the "
                        + "exchanges in an array: {\"log\": {\"entries\": [...]}}.", at: offset)
            }
            role = .entries
            sawEntries = true
        case .entries:
            entryActive = true
            entryStart = offset
            entryTooLarge = false
            entryBytes.removeAll(keepingCapacity: entryBytes.capacity <= 1 << 16)
            entrySegment = index
        default:
            break
        }
        started = true
        pendingKey = .other
        switch byte {
        case Self.openBrace:
            try push(isArray: false, role: role, at: offset)
            expect = .keyOrClose
        case Self.openBracket:
            try push(isArray: true, role: role, at: offset)
            expect = .valueOrClose
        case Self.quote:
            inString = true
            stringIsKey = false
        default:
            guard Self.isTokenByte(byte) else { throw unexpected(byte, at: offset, expected: "a JSON value") }
            inToken = true
        }
    }

    /// Opens a container.
    private mutating func push(isArray: Bool, role: Role, at offset: Int) throws(SerializationError) {
        guard stack.count < maxDepth else {
            throw SerializationError(
                code: .limitExceeded,
                message:
                    "The HAR file nests objects and arrays deeper than \(maxDepth) levels at byte \(offset). Raise "
                    + "the 'maxDepth' option if the file is genuine.",
                offset: offset)
        }
        stack.append((role.rawValue << 1) | (isArray ? 1 : 0))
    }

    /// Closes the innermost container with `byte` (`}` or `]`).
    private mutating func close(
        _ byte: UInt8, at index: Int, in bytes: UnsafeRawBufferPointer, entrySegment: inout Int,
        into records: inout [Result<ArchivedResponse, SerializationError>]
    ) throws(SerializationError) {
        let offset = position + index
        guard let last = stack.last, (last & 1 == 1) == (byte == Self.closeBracket) else {
            throw unexpected(byte, at: offset, expected: stack.last.map { $0 & 1 == 1 ? "']'" : "'}'" } ?? "a value")
        }
        stack.removeLast()
        try valueEnded(at: index + 1, in: bytes, entrySegment: &entrySegment, into: &records)
    }

    /// A value ended just before `end` in this chunk: completes an entry, or the document.
    private mutating func valueEnded(
        at end: Int, in bytes: UnsafeRawBufferPointer, entrySegment: inout Int,
        into records: inout [Result<ArchivedResponse, SerializationError>]
    ) throws(SerializationError) {
        guard let last = stack.last else {
            expect = .end
            let offset = position + end
            guard sawLog else {
                throw invalidBody(
                    "The JSON object that ends at byte \(offset) has no 'log' object, so it is not a HAR file. HAR "
                        + "1.2 puts the archive in {\"log\": {\"entries\": [...]}}.", at: offset)
            }
            guard sawEntries else {
                throw invalidBody(
                    "The HAR file's 'log' object has no 'entries' array (the file ends at byte \(offset)). HAR 1.2 "
                        + "lists the exchanges in log.entries.", at: offset)
            }
            return
        }
        expect = .commaOrClose
        guard last >> 1 == Role.entries.rawValue, entryActive else { return }
        let index = entryIndex
        entryIndex += 1
        entryActive = false
        let segment = entrySegment
        entrySegment = -1
        if entryTooLarge || segment < 0 {
            records.append(.success(tooLarge(index)))
            return
        }
        if entryBytes.isEmpty {
            guard end - segment <= maxRecordBytes else {
                records.append(.success(tooLarge(index)))
                return
            }
            let entry = UnsafeRawBufferPointer(rebasing: bytes[segment..<end])
            records.append(.success(HAREntry.response(entry, index: index, offset: entryStart, parser: parser)))
            return
        }
        appendEntry(bytes, from: segment, to: end)
        if entryTooLarge {
            records.append(.success(tooLarge(index)))
            return
        }
        let record = entryBytes.withUnsafeBytes { entry in
            HAREntry.response(entry, index: index, offset: entryStart, parser: parser)
        }
        records.append(.success(record))
    }

    // MARK: - Buffers

    /// Keeps `bytes[start..<end]` of the current entry, or drops the entry's bytes when they pass the limit.
    private mutating func appendEntry(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        guard !entryTooLarge, start < end else { return }
        if entryBytes.count + (end - start) > maxRecordBytes {
            entryTooLarge = true
            entryBytes = []
            return
        }
        entryBytes.append(contentsOf: bytes[start..<end])
    }

    /// Keeps `bytes[start..<end]` of the member name being read, up to ``maxKeyBytes``.
    private mutating func appendKey(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        guard !keyTooLong, start >= 0, start < end else { return }
        if keyBytes.count + (end - start) > Self.maxKeyBytes {
            keyTooLong = true
            return
        }
        keyBytes.append(contentsOf: bytes[start..<end])
    }

    /// Which member the name just read is (escapes resolved by the JSON parser).
    private func classifyKey() -> Key {
        guard !keyTooLong else { return .other }
        var name = keyBytes
        if name.contains(Self.backslash) {
            guard
                let value = try? JSONParser().parse(Data([Self.quote] + name + [Self.quote])).stringValue
            else { return .other }
            name = Array(value.utf8)
        }
        if name.elementsEqual("log".utf8) { return .log }
        if name.elementsEqual("entries".utf8) { return .entries }
        return .other
    }

    // MARK: - Errors

    /// The record of an entry over ``maxRecordBytes``.
    private func tooLarge(_ index: Int) -> ArchivedResponse {
        let error = SerializationError(
            code: .limitExceeded,
            message:
                "Entry \(index) of log.entries, at byte \(entryStart), is larger than \(maxRecordBytes) bytes, so it "
                + "was skipped. Raise StreamOptions.maxRecordBytes (or the 'maxRecordBytes' option) to read it.",
            offset: entryStart)
        return ArchivedResponse(index: index, targetURI: nil, offset: entryStart, response: .failure(error))
    }

    private func invalidBody(_ message: String, at offset: Int) -> SerializationError {
        SerializationError(code: .invalidBody, message: message, offset: offset)
    }

    private func unexpected(_ byte: UInt8, at offset: Int, expected: String) -> SerializationError {
        invalidBody(
            "The HAR file is not valid JSON: byte \(offset) is \(Self.describe(byte)) where \(expected) should be. "
                + "Check that the file is a complete HAR export.", at: offset)
    }

    /// A byte for a message: the character when printable ASCII, else its hex value.
    private static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte)
            ? "'\(Character(Unicode.Scalar(byte)))'" : "0x" + String(byte, radix: 16, uppercase: true)
    }

    // MARK: - Bytes

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let colon = UInt8(ascii: ":")
    private static let comma = UInt8(ascii: ",")
    private static let openBrace = UInt8(ascii: "{")
    private static let closeBrace = UInt8(ascii: "}")
    private static let openBracket = UInt8(ascii: "[")
    private static let closeBracket = UInt8(ascii: "]")
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Whether `byte` can be part of a number or literal (`true`, `false`, `null`).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }
}
