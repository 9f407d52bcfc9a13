public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// An RFC 8259 JSON parser producing a ``JSONValue``.
///
/// It accepts exactly the JSON texts RFC 8259 defines and rejects everything else: trailing commas, comments, single
/// quotes, leading zeros, `NaN` and `Infinity`, unescaped control characters, invalid escapes, escaped lone
/// surrogates, and invalid UTF-8. The text may be UTF-8 (with or without a byte order mark, RFC 8259 §8.1) or
/// UTF-16/UTF-32 with or without one, detected from its first bytes as RFC 4627 §3 describes.
///
/// Parsing is one pass without recursion: a document nested 100,000 deep fails cleanly with
/// `SerializationError.Code.limitExceeded` at ``JSONParsingOptions/maxDepth``. Numbers are validated and kept as
/// their text (see ``JSONNumber``), so nothing is lost and nothing is converted until asked.
///
/// ```swift
/// let value = try JSONParser().parse(Data(#"{"id": 18446744073709551617, "tags": ["a", "b"]}"#.utf8))
/// value["id"]?.numberValue?.text     // "18446744073709551617", exactly
/// value["tags"]?[1]?.stringValue     // "b"
/// ```
public struct JSONParser: Sendable {
    /// The options; see ``JSONParsingOptions``.
    public var options: JSONParsingOptions

    /// Creates a parser.
    public init(options: JSONParsingOptions = JSONParsingOptions()) {
        self.options = options
    }

    /// Parses one JSON text (RFC 8259 §2).
    ///
    /// - Throws: `SerializationError` (serializer id `json`) with `SerializationError.offset` set to the byte
    ///   offset of the problem in `data`, and a message giving the line and column, what was found and what was
    ///   expected: `SerializationError.Code.invalidBody` for syntax errors,
    ///   `SerializationError.Code.invalidEncoding` for malformed UTF-8, UTF-16 or UTF-32,
    ///   `SerializationError.Code.limitExceeded` beyond ``JSONParsingOptions/maxDepth`` (or for a single string
    ///   longer than 256 MiB), `SerializationError.Code.bodyTooLarge` beyond ``JSONParsingOptions/maxBytes``.
    public func parse(_ data: Data) throws(SerializationError) -> JSONValue {
        var result: Result<JSONValue, SerializationError>?
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            do throws(SerializationError) {
                result = .success(try parse(raw))
            } catch {
                result = .failure(error)
            }
        }
        return try result!.get()
    }

    /// Parses one JSON text from bytes the caller owns (a line of a stream, a slice of a larger buffer), without
    /// first copying them into a `Data`; the value keeps its own copy.
    ///
    /// - Throws: `SerializationError`, as ``parse(_:)-(Data)`` does; offsets count from the first byte of `bytes`.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws(SerializationError) -> JSONValue {
        let limit = min(max(options.maxBytes, 0), Tape.maxOffset - JSONScanner.padding)
        guard bytes.count <= limit else {
            throw SerializationError(
                code: .bodyTooLarge,
                message: "The JSON body has \(bytes.count) bytes, more than the parser's limit of \(limit). Raise "
                    + "JSONParsingOptions.maxBytes if such bodies are expected.",
                serializerID: "json")
        }
        let (encoding, bomLength) = JSONTextEncoding.detect(bytes)
        let body = UnsafeRawBufferPointer(rebasing: bytes[bomLength...])
        // The scanner's copy of the body, padded; the storage of a parsed value keeps it (unescaped strings are
        // spans of it), so it is allocated to be handed over, not made as an array.
        let buffer: UnsafeMutableBufferPointer<UInt8>
        if encoding == .utf8 {
            buffer = .allocate(capacity: body.count + JSONScanner.padding)
            JSONScanner.initializePadded(buffer.baseAddress!, from: body)
        } else {
            do throws(JSONTextEncoding.Failure) {
                let transcoded = try encoding.transcodeToUTF8(body, padding: JSONScanner.padding)
                buffer = .allocate(capacity: transcoded.count)
                _ = buffer.initialize(from: transcoded)
            } catch {
                throw SerializationError(
                    code: .invalidEncoding,
                    message: "The JSON body was detected as \(encoding) (RFC 8259 §8.1, RFC 4627 §3) but is "
                        + "not valid \(encoding): \(error.reason) at byte \(bomLength + error.offset). Send "
                        + "the body as UTF-8.",
                    serializerID: "json",
                    offset: bomLength + error.offset)
            }
        }
        var scanner = JSONScanner(
            bytes: buffer.baseAddress!, count: buffer.count - JSONScanner.padding, options: options)
        do throws(JSONSyntaxError) {
            try scanner.scan()
        } catch {
            _ = consume scanner
            buffer.deallocate()
            throw JSONErrorReport(data: Data(bytes), encoding: encoding, bomLength: bomLength).error(for: error)
        }
        return JSONValue(storage: JSONStorage(adoptingTape: scanner.takeTape(), bytes: buffer), index: 0)
    }

    /// Parses several JSON texts that lie in one buffer, such as the lines of an NDJSON chunk, into values that share
    /// one copy of their bytes and one tape: each text gives the value or the error that
    /// ``parse(_:)-(UnsafeRawBufferPointer)`` would give it alone, at a fraction of the cost per text when the texts
    /// are small. The values keep the shared storage alive together (it is freed when the last one goes).
    ///
    /// - Parameters:
    ///   - texts: The texts' ranges in `bytes`, in order.
    ///   - bytes: The buffer that holds them.
    /// - Returns: One result per text, in order; error offsets count from the first byte of their text.
    public func parse(texts: [Range<Int>], in bytes: UnsafeRawBufferPointer) -> [Result<JSONValue, SerializationError>]
    {
        let limit = min(max(options.maxBytes, 0), Tape.maxOffset - JSONScanner.padding)
        var total = 0
        var batched = [Bool](repeating: false, count: texts.count)
        for (index, range) in texts.enumerated() {
            let text = UnsafeRawBufferPointer(rebasing: bytes[range])
            let (encoding, bomLength) = JSONTextEncoding.detect(text)
            // UTF-16, UTF-32 and a BOM go through the single-text path, which transcodes.
            guard encoding == .utf8, bomLength == 0, range.count <= limit else { continue }
            let (sum, overflow) = total.addingReportingOverflow(range.count + JSONScanner.padding)
            guard !overflow, sum <= limit else { break }
            total = sum
            batched[index] = true
        }
        var results: [Result<JSONValue, SerializationError>] = []
        results.reserveCapacity(texts.count)
        guard total > 0 else {
            for range in texts { results.append(parseAlone(UnsafeRawBufferPointer(rebasing: bytes[range]))) }
            return results
        }
        // Each text is copied once, followed by the zero padding the scanner needs after a text.
        var starts: [Int] = []
        starts.reserveCapacity(texts.count)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: total)
        var position = 0
        for (index, range) in texts.enumerated() where batched[index] {
            starts.append(position)
            JSONScanner.initializePadded(
                buffer.baseAddress! + position, from: UnsafeRawBufferPointer(rebasing: bytes[range]))
            position += range.count + JSONScanner.padding
        }
        var roots: [Int] = []
        roots.reserveCapacity(starts.count)
        var failures: [Int: JSONSyntaxError] = [:]
        var scanner = JSONScanner(bytes: buffer.baseAddress!, count: total, options: options)
        var next = 0
        for (index, range) in texts.enumerated() where batched[index] {
            let start = starts[next]
            next += 1
            do throws(JSONSyntaxError) {
                roots.append(try scanner.scanText(from: start, to: start + range.count))
            } catch {
                var failure = error
                failure.offset -= start
                failures[roots.count] = failure
                roots.append(-1)
            }
        }
        let storage = JSONStorage(adoptingTape: scanner.takeTape(), bytes: buffer)
        next = 0
        for (index, range) in texts.enumerated() {
            guard batched[index] else {
                results.append(parseAlone(UnsafeRawBufferPointer(rebasing: bytes[range])))
                continue
            }
            if let failure = failures[next] {
                let text = Data(UnsafeRawBufferPointer(rebasing: bytes[range]))
                results.append(.failure(JSONErrorReport(data: text, encoding: .utf8, bomLength: 0).error(for: failure)))
            } else {
                results.append(.success(JSONValue(storage: storage, index: roots[next])))
            }
            next += 1
        }
        return results
    }

    /// ``parse(_:)-(UnsafeRawBufferPointer)`` as a result.
    private func parseAlone(_ text: UnsafeRawBufferPointer) -> Result<JSONValue, SerializationError> {
        do throws(SerializationError) {
            return .success(try parse(text))
        } catch {
            return .failure(error)
        }
    }

    /// Parses a JSON text given as a string.
    ///
    /// - Throws: `SerializationError`, as ``parse(_:)-(Data)`` does.
    public func parse(_ text: String) throws(SerializationError) -> JSONValue {
        try parse(Data(text.utf8))
    }
}

/// Builds the `SerializationError` of a ``JSONSyntaxError``: line and column, what was found, what was expected,
/// how to fix it, and a short excerpt (at most 32 bytes of the body).
struct JSONErrorReport {
    let data: Data
    let encoding: JSONTextEncoding
    let bomLength: Int

    /// The UTF-8 text as it was before scanning (the scanner unescapes in place).
    private var text: [UInt8] {
        let body = [UInt8](data.dropFirst(bomLength))
        guard encoding != .utf8 else { return body }
        return body.withUnsafeBytes { raw in
            (try? encoding.transcodeToUTF8(raw, padding: 0)) ?? []
        }
    }

    func error(for failure: JSONSyntaxError) -> SerializationError {
        let text = self.text
        let offset = min(failure.offset, text.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where text[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        let column = text[lineStart..<offset].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        let byteOffset = bomLength + encoding.originalOffset(ofUTF8Offset: offset, in: text)
        let found = Self.describe(text, at: offset)
        let place = "at line \(line), column \(column) (byte \(byteOffset))"
        let near = Self.excerpt(text, around: offset)
        let code: SerializationError.Code
        let message: String
        switch failure.reason {
        case .empty:
            code = .invalidBody
            message =
                "The JSON body has no value: it is empty or only whitespace, and RFC 8259 §2 requires one. "
                + "Send a JSON value, or let the chain's empty-body policy turn empty responses into a value."
        case .unexpected(let expectation):
            code = .invalidBody
            message =
                "Expected \(Self.describe(expectation)) \(place), found \(found)\(near). "
                + Self.advice(expectation, found: offset < text.count ? text[offset] : nil)
        case .invalidLiteral:
            code = .invalidBody
            let word = text[offset...].prefix(12).prefix { $0 < 0x80 && Character(Unicode.Scalar($0)).isLetter }
            let literal = "'\(String(decoding: word, as: UTF8.self))'"
            message =
                "Expected true, false or null \(place), found \(literal)\(near). The literal names are "
                + "lowercase, and NaN, Infinity and undefined are not JSON (RFC 8259 §3)."
        case .leadingZero:
            code = .invalidBody
            message =
                "A number has a leading zero \(place)\(near). RFC 8259 §6 forbids leading zeros (write 13, "
                + "not 013); send identifiers such as zip codes as strings."
        case .missingIntegerDigits:
            code = .invalidBody
            message =
                "Expected a digit after '-' \(place), found \(found)\(near). A number is written like -12.5e3 "
                + "(RFC 8259 §6); Infinity and NaN are not JSON."
        case .missingFractionDigits:
            code = .invalidBody
            message =
                "Expected a digit after the decimal point \(place), found \(found)\(near). Write 2.0 or 2, "
                + "not 2. (RFC 8259 §6)."
        case .missingExponentDigits:
            code = .invalidBody
            message =
                "Expected a digit in the exponent \(place), found \(found)\(near). Write 1e5 or 1e+5, not 1e "
                + "(RFC 8259 §6)."
        case .invalidEscape:
            code = .invalidBody
            message =
                "Invalid escape in a string \(place)\(near). The escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t "
                + "and \\u followed by four hex digits (RFC 8259 §7)."
        case .invalidUnicodeEscape:
            code = .invalidBody
            message =
                "Invalid \\u escape \(place)\(near): it needs four hexadecimal digits, such as \\u00e9 "
                + "(RFC 8259 §7)."
        case .loneHighSurrogate:
            code = .invalidBody
            message =
                "The escape \(place)\(near) is a high surrogate (\\uD800-\\uDBFF) not followed by a low "
                + "surrogate escape (\\uDC00-\\uDFFF), so it encodes no character (RFC 8259 §7, §8.2). Escape a "
                + "character outside the BMP as a surrogate pair, or send it as UTF-8."
        case .loneLowSurrogate:
            code = .invalidBody
            message =
                "The escape \(place)\(near) is a low surrogate (\\uDC00-\\uDFFF) without a high surrogate "
                + "before it, so it encodes no character (RFC 8259 §7, §8.2). Send the character as UTF-8."
        case .controlCharacter:
            code = .invalidBody
            message =
                "A string contains the unescaped control character \(found) \(place)\(near). Escape it "
                + "(\\n, \\t, \\u0000 ...) as RFC 8259 §7 requires."
        case .unterminatedString:
            code = .invalidBody
            message =
                "The body ends inside a string \(place)\(near). Close the string with '\"'; the body may "
                + "have been truncated."
        case .invalidUTF8:
            code = .invalidEncoding
            message =
                "Invalid UTF-8 \(place): found \(found)\(near). JSON text must be UTF-8 (RFC 8259 §8.1); "
                + "send the body as UTF-8 (a Latin-1 or Windows-1252 body must be converted first)."
        case .trailingContent:
            code = .invalidBody
            message =
                "Unexpected \(found) after the JSON value \(place)\(near). A JSON text is one value "
                + "(RFC 8259 §2); remove what follows it, or use NDJSON for a sequence of values."
        case .fragmentNotAllowed:
            code = .invalidBody
            message =
                "The top-level value \(place) is not an object or array\(near), and fragments are not "
                + "allowed. Set JSONParsingOptions.allowsFragments to true to accept any value, as RFC 8259 §2 does."
        case .depthExceeded(let limit):
            code = .limitExceeded
            message =
                "Arrays and objects are nested more than \(limit) deep \(place). Raise "
                + "JSONParsingOptions.maxDepth if such documents are expected (RFC 8259 §9 lets parsers limit "
                + "nesting)."
        case .duplicateKey(let length):
            code = .invalidBody
            let key = Self.excerpt(text, from: offset + 1, count: min(length, 32))
            message =
                "The key \"\(key)\(length > 32 ? "…" : "")\" appears twice in an object \(place). The "
                + "duplicate-key policy is .reject; use .lastWins to keep the last value (RFC 8259 §4: names "
                + "SHOULD be unique)."
        case .spanTooLong:
            code = .limitExceeded
            message = "A string or number \(place) is longer than 256 MiB, the most a JSONValue can hold."
        }
        let prefix = code == .invalidBody && Self.looksLikeHTML(text) ? Self.htmlNote : ""
        return SerializationError(code: code, message: prefix + message, serializerID: "json", offset: byteOffset)
    }

    /// What a syntax error's message starts with when the body is an HTML page.
    static let htmlNote =
        "The body looks like an HTML page, not JSON: a login page, proxy or error page? Check the URL, the "
        + "credentials and the status; the server labelled it as JSON. "

    /// Whether `text` (UTF-8, without its byte order mark) starts, after whitespace, with `<!doctype html` or `<html`
    /// in any case: a page served under a JSON media type. Reads at most the first bytes up to the tag.
    static func looksLikeHTML(_ text: [UInt8]) -> Bool {
        guard let start = text.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D, 0x0C].contains($0) }),
            text[start] == UInt8(ascii: "<")
        else { return false }
        func hasPrefix(_ tag: String) -> Bool {
            let tag = Array(tag.utf8)
            guard text.count - start >= tag.count else { return false }
            return zip(text[start..<(start + tag.count)], tag).allSatisfy { byte, expected in
                (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == expected
            }
        }
        return hasPrefix("<!doctype html") || hasPrefix("<html")
    }

    static func describe(_ expectation: JSONSyntaxError.Expectation) -> String {
        switch expectation {
        case .value: "a value"
        case .valueOrArrayEnd: "a value or ']'"
        case .keyOrObjectEnd: "a string key or '}'"
        case .key: "a string key"
        case .colon: "':' after the key"
        case .commaOrArrayEnd: "',' or ']' after an array element"
        case .commaOrObjectEnd: "',' or '}' after an object member"
        }
    }

    static func advice(_ expectation: JSONSyntaxError.Expectation, found: UInt8?) -> String {
        switch (expectation, found) {
        case (_, nil):
            return "The body ends too early; it may have been truncated."
        case (_, UInt8(ascii: "/")?), (_, UInt8(ascii: "#")?):
            return "JSON has no comments (RFC 8259)."
        case (.value, UInt8(ascii: "]")?), (.key, UInt8(ascii: "}")?):
            return "Remove the trailing comma: RFC 8259 §4 and §5 do not allow one."
        case (.key, UInt8(ascii: "'")?), (.keyOrObjectEnd, UInt8(ascii: "'")?), (.value, UInt8(ascii: "'")?),
            (.valueOrArrayEnd, UInt8(ascii: "'")?):
            return "Strings use double quotes in JSON (RFC 8259 §7)."
        case (.key, _), (.keyOrObjectEnd, _):
            return "Object keys are strings in double quotes (RFC 8259 §4)."
        case (.colon, _):
            return "Put ':' between a key and its value (RFC 8259 §4)."
        case (.commaOrArrayEnd, _):
            return "Separate array elements with ',' and close the array with ']' (RFC 8259 §5)."
        case (.commaOrObjectEnd, _):
            return "Separate members with ',' and close the object with '}' (RFC 8259 §4)."
        case (_, UInt8(ascii: "+")?), (_, UInt8(ascii: ".")?), (_, UInt8(ascii: "N")?), (_, UInt8(ascii: "I")?):
            return "Numbers have no '+' sign or leading '.', and NaN and Infinity are not JSON (RFC 8259 §6)."
        default:
            return "A value is an object, array, number, string, true, false or null (RFC 8259 §3)."
        }
    }

    /// What is at `offset`: the end of the body, a character, or a byte.
    static func describe(_ text: [UInt8], at offset: Int) -> String {
        guard offset < text.count else { return "the end of the body" }
        let byte = text[offset]
        switch byte {
        case 0x20: return "a space"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0..<0x20, 0x7F: return "U+00" + hex(byte)
        default:
            let length = byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            let end = min(offset + length, text.count)
            if let scalar = validUTF8(text[offset..<end])?.unicodeScalars.first,
                byte >= 0xC2
            {
                return "'\(scalar)' (U+\(String(scalar.value, radix: 16, uppercase: true)))"
            }
            return "the byte 0x" + hex(byte)
        }
    }

    /// `bytes` as a string when they are valid UTF-8, else `nil`. Decoding gives valid UTF-8 back byte for byte and
    /// turns anything invalid into U+FFFD, so the round trip is the test. (`String(validating:as:)` says the same but
    /// needs macOS 15 / iOS 18, above the package's minimums.)
    static func validUTF8(_ bytes: ArraySlice<UInt8>) -> String? {
        let string = String(decoding: bytes, as: UTF8.self)
        return string.utf8.elementsEqual(bytes) ? string : nil
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    /// ` near "…"`: up to 16 bytes before and 16 after `offset`, with control characters and invalid bytes escaped.
    static func excerpt(_ text: [UInt8], around offset: Int) -> String {
        guard !text.isEmpty else { return "" }
        var start = max(0, offset - 16)
        while start > 0 && start < text.count && text[start] & 0xC0 == 0x80 { start -= 1 }
        let end = min(text.count, offset + 16)
        let body = excerpt(text, from: start, count: end - start)
        return " near \"\(start > 0 ? "…" : "")\(body)\(end < text.count ? "…" : "")\""
    }

    /// `count` bytes from `start`, as printable text: control characters escaped, invalid UTF-8 as `\xNN`.
    static func excerpt(_ text: [UInt8], from start: Int, count: Int) -> String {
        let end = min(text.count, start + count)
        guard start < end else { return "" }
        var result = ""
        var index = start
        while index < end {
            let byte = text[index]
            if byte < 0x20 || byte == 0x7F {
                switch byte {
                case 0x0A: result += "\\n"
                case 0x0D: result += "\\r"
                case 0x09: result += "\\t"
                default: result += "\\u00" + hex(byte)
                }
                index += 1
            } else if byte < 0x80 {
                result.unicodeScalars.append(Unicode.Scalar(byte))
                index += 1
            } else {
                let length = byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                if byte >= 0xC2, index + length <= end,
                    let scalar = validUTF8(text[index..<index + length])
                {
                    result += scalar
                    index += length
                } else {
                    result += "\\x" + hex(byte)
                    index += 1
                }
            }
        }
        return result
    }
}
