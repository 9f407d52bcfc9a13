import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads OpenStep (old-style ASCII) property lists: `{ key = value; }`, `( a, b )`, quoted and unquoted strings,
/// `<hex data>`, `//` and `/* */` comments, and a top-level dictionary without braces (the `.strings` layout).
/// Parsing uses an explicit stack, never recursion.
///
/// A `\U` escape holds one UTF-16 code unit (up to 4 hex digits). A character above U+FFFF is written as a
/// surrogate pair of two escapes, `\UD83D\UDE00`, which joins into one scalar (U+1F600); a lone surrogate (a high
/// one not followed by a `\U` low one, or a low one alone) cannot be a Unicode scalar and is an `invalidBody` error,
/// as an unpaired surrogate in a binary property list's UTF-16 string is.
struct OpenStepPropertyListParser {
    let text: [UInt8]
    let options: PropertyListParsingOptions
    private var position = 0
    private var objectCount = 0

    init(text: [UInt8], options: PropertyListParsingOptions) {
        self.text = text
        self.options = options
    }

    private enum Frame {
        case array([PropertyListValue], expectsSeparator: Bool)
        case dictionary([(key: String, value: PropertyListValue)], key: String?, braces: Bool)
    }

    private func error(_ message: String, at offset: Int? = nil) -> SerializationError {
        let offset = offset ?? position
        let (line, column) = PropertyListErrors.lineAndColumn(of: offset, in: text)
        return PropertyListErrors.make(
            .invalidBody,
            "The OpenStep property list is invalid at line \(line), column \(column): \(message).",
            offset: offset)
    }

    private static func isUnquoted(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || "_$+/:.-".utf8.contains(byte)
    }

    /// Skips whitespace and comments; returns the next byte or `nil` at the end.
    private mutating func peek() throws(SerializationError) -> UInt8? {
        while position < text.count {
            let byte = text[position]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C || byte == 0x0B {
                position += 1
            } else if byte == UInt8(ascii: "/"), position + 1 < text.count, text[position + 1] == UInt8(ascii: "/") {
                while position < text.count, text[position] != 0x0A, text[position] != 0x0D { position += 1 }
            } else if byte == UInt8(ascii: "/"), position + 1 < text.count, text[position + 1] == UInt8(ascii: "*") {
                let start = position
                position += 2
                while position + 1 < text.count,
                    !(text[position] == UInt8(ascii: "*") && text[position + 1] == UInt8(ascii: "/"))
                {
                    position += 1
                }
                guard position + 1 < text.count else { throw error("a comment is not closed with '*/'", at: start) }
                position += 2
            } else {
                return byte
            }
        }
        return nil
    }

    mutating func parse() throws(SerializationError) -> PropertyListValue {
        guard try peek() != nil else { return .dictionary(PropertyListDictionary()) }
        // A top-level `key = value;` list is a dictionary without braces.
        let start = position
        if let first = try peek(), first != UInt8(ascii: "{"), first != UInt8(ascii: "("), first != UInt8(ascii: "<") {
            _ = try readString()
            let isBraceless = try peek() == UInt8(ascii: "=")
            position = start
            if isBraceless { return try parseValues(stack: [.dictionary([], key: nil, braces: false)]) }
        }
        return try parseValues(stack: [])
    }

    private mutating func parseValues(stack initial: [Frame]) throws(SerializationError) -> PropertyListValue {
        var stack = initial
        var result: PropertyListValue? = nil
        while true {
            let next = try peek()
            var value: PropertyListValue? = nil
            switch stack.last {
            case .array(let values, let expectsSeparator)?:
                guard let next else { throw error("the document ends inside an array") }
                if next == UInt8(ascii: ")") {
                    position += 1
                    stack.removeLast()
                    value = .array(values)
                } else if expectsSeparator {
                    guard next == UInt8(ascii: ",") else { throw error("expected ',' or ')' after an array element") }
                    position += 1
                    stack[stack.count - 1] = .array(values, expectsSeparator: false)
                    continue
                }
            case .dictionary(let entries, let key, let braces)?:
                if key == nil {
                    if braces, next == UInt8(ascii: "}") {
                        position += 1
                        stack.removeLast()
                        value = .dictionary(PropertyListDictionary(entries))
                    } else if !braces, next == nil {
                        stack.removeLast()
                        value = .dictionary(PropertyListDictionary(entries))
                    } else {
                        guard next != nil else { throw error("the document ends inside a dictionary") }
                        let keyStart = position
                        guard next != UInt8(ascii: "{"), next != UInt8(ascii: "("), next != UInt8(ascii: "<") else {
                            throw error("a dictionary key must be a string", at: keyStart)
                        }
                        let newKey = try readString()
                        let separator = try peek()
                        if separator == UInt8(ascii: ";") {
                            // `key;` is shorthand for `key = key;` (strings files).
                            position += 1
                            guard case .dictionary(var updated, _, _)? = stack.popLast() else { continue }
                            updated.append((newKey, .string(newKey)))
                            stack.append(.dictionary(updated, key: nil, braces: braces))
                            try count(at: keyStart)
                            continue
                        }
                        guard separator == UInt8(ascii: "=") else { throw error("expected '=' after a dictionary key") }
                        position += 1
                        stack[stack.count - 1] = .dictionary(entries, key: newKey, braces: braces)
                        continue
                    }
                }
            case nil:
                break
            }
            if value == nil {
                guard let next else { throw error("the document holds no value") }
                let valueStart = position
                switch next {
                case UInt8(ascii: "{"), UInt8(ascii: "("):
                    guard stack.count < options.maxDepth else {
                        throw PropertyListErrors.tooDeep(options.maxDepth, offset: valueStart)
                    }
                    position += 1
                    stack.append(
                        next == UInt8(ascii: "{")
                            ? .dictionary([], key: nil, braces: true) : .array([], expectsSeparator: false))
                    continue
                case UInt8(ascii: "<"):
                    value = .data(try readData())
                default:
                    value = .string(try readString())
                }
            }
            try count(at: position)
            guard let finished = value else { continue }
            switch stack.popLast() {
            case nil:
                guard try peek() == nil else { throw error("content follows the property list's root value") }
                result = finished
            case .array(var values, _)?:
                values.append(finished)
                stack.append(.array(values, expectsSeparator: true))
            case .dictionary(var entries, let key?, let braces)?:
                let terminator = try peek()
                if terminator == UInt8(ascii: ";") {
                    position += 1
                } else if !(braces && terminator == UInt8(ascii: "}")) {
                    throw error("expected ';' after the value of the key '\(key)'")
                }
                entries.append((key, finished))
                stack.append(.dictionary(entries, key: nil, braces: braces))
            case .dictionary(_, nil, _)?:
                throw error("a value has no key")
            }
            if let result { return result }
        }
    }

    private mutating func count(at offset: Int) throws(SerializationError) {
        objectCount += 1
        guard objectCount <= options.maxObjects else {
            throw PropertyListErrors.tooManyObjects(options.maxObjects, offset: offset)
        }
    }

    private mutating func readData() throws(SerializationError) -> Data {
        let start = position
        position += 1
        var bytes: [UInt8] = []
        var high: UInt8? = nil
        while position < text.count {
            let byte = text[position]
            position += 1
            if byte == UInt8(ascii: ">") {
                guard high == nil else { throw error("the data has an odd number of hex digits", at: start) }
                return Data(bytes)
            }
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            guard let nibble = OpenStepPropertyListParser.hexValue(byte) else {
                throw error("the data holds '\(Unicode.Scalar(byte))', which is not a hex digit", at: position - 1)
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        throw error("the data is not closed with '>'", at: start)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private mutating func readString() throws(SerializationError) -> String {
        let start = position
        guard position < text.count else { throw error("expected a string") }
        let quote = text[position]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            while position < text.count, OpenStepPropertyListParser.isUnquoted(text[position]) { position += 1 }
            guard position > start else {
                throw error("'\(Unicode.Scalar(text[start]))' cannot start a value (quote strings with \"...\")")
            }
            return String(decoding: text[start..<position], as: UTF8.self)
        }
        position += 1
        // The text is valid UTF-8 (it was decoded), so plain bytes are copied; escapes append their scalar's UTF-8.
        var output: [UInt8] = []
        while position < text.count {
            let byte = text[position]
            position += 1
            if byte == quote { return String(decoding: output, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                continue
            }
            guard position < text.count else { break }
            let escapeStart = position - 1
            let escape = text[position]
            position += 1
            switch escape {
            case UInt8(ascii: "a"): output.append(0x07)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "v"): output.append(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = UInt32(escape - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, position < text.count,
                    (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(text[position])
                {
                    value = value * 8 + UInt32(text[position] - UInt8(ascii: "0"))
                    position += 1
                    digits += 1
                }
                output.append(contentsOf: String(OpenStepPropertyListParser.nextStepScalar(value)).utf8)
            case UInt8(ascii: "U"):
                var value = readHexEscape()
                if value & 0xFC00 == 0xDC00 {
                    throw error(
                        "the escape \\U\(String(value, radix: 16, uppercase: true)) is a low surrogate without a "
                            + "high surrogate before it; write a character above U+FFFF as a \\UD8xx\\UDCxx pair",
                        at: escapeStart)
                }
                if value & 0xFC00 == 0xD800 {
                    // A high surrogate must be followed by a `\U` low surrogate: together they are one scalar.
                    guard position + 1 < text.count, text[position] == UInt8(ascii: "\\"),
                        text[position + 1] == UInt8(ascii: "U")
                    else {
                        throw error(
                            "the escape \\U\(String(value, radix: 16, uppercase: true)) is a high surrogate not "
                                + "followed by a \\U low surrogate (\\UDC00 to \\UDFFF)", at: escapeStart)
                    }
                    position += 2
                    let low = readHexEscape()
                    guard low & 0xFC00 == 0xDC00 else {
                        throw error(
                            "the escape \\U\(String(value, radix: 16, uppercase: true)) is a high surrogate followed "
                                + "by \\U\(String(low, radix: 16, uppercase: true)), not by a low surrogate",
                            at: escapeStart)
                    }
                    value = 0x10000 + ((value - 0xD800) << 10 | (low - 0xDC00))
                }
                // Not a surrogate and below 0x110000, so always a scalar.
                output.append(contentsOf: String(Unicode.Scalar(value) ?? "\u{FFFD}").utf8)
            default:
                output.append(escape)
            }
        }
        throw error("the string is not closed with \(quote == UInt8(ascii: "\"") ? "'\"'" : "\"'\"")", at: start)
    }

    /// Reads the up to 4 hex digits of a `\U` escape (as CoreFoundation does: fewer digits end the escape early, none
    /// is U+0000) and returns their value.
    private mutating func readHexEscape() -> UInt32 {
        var value: UInt32 = 0
        var digits = 0
        while digits < 4, position < text.count, let nibble = OpenStepPropertyListParser.hexValue(text[position]) {
            value = value * 16 + UInt32(nibble)
            position += 1
            digits += 1
        }
        return value
    }

    /// An octal escape: its low 8 bits (as CoreFoundation keeps them), ASCII below 128, else the NeXTSTEP character
    /// set's character.
    private static func nextStepScalar(_ escaped: UInt32) -> Unicode.Scalar {
        let value = escaped & 0xFF
        if value < 0x80 { return Unicode.Scalar(UInt8(value)) }
        let index = Int(value & 0x7F)
        return Unicode.Scalar(nextStepHigh[index]) ?? "\u{FFFD}"
    }

    /// NeXTSTEP encoding, bytes 0x80 to 0xFF.
    private static let nextStepHigh: [UInt32] = [
        0x00A0, 0x00C0, 0x00C1, 0x00C2, 0x00C3, 0x00C4, 0x00C5, 0x00C7, 0x00C8, 0x00C9, 0x00CA, 0x00CB, 0x00CC, 0x00CD,
        0x00CE, 0x00CF, 0x00D0, 0x00D1, 0x00D2, 0x00D3, 0x00D4, 0x00D5, 0x00D6, 0x00D9, 0x00DA, 0x00DB, 0x00DC, 0x00DD,
        0x00DE, 0x00B5, 0x00D7, 0x00F7, 0x00A9, 0x00A1, 0x00A2, 0x00A3, 0x2044, 0x00A5, 0x0192, 0x00A7, 0x00A4, 0x2019,
        0x201C, 0x00AB, 0x2039, 0x203A, 0xFB01, 0xFB02, 0x00AE, 0x2013, 0x2020, 0x2021, 0x00B7, 0x00A6, 0x00B6, 0x2022,
        0x201A, 0x201E, 0x201D, 0x00BB, 0x2026, 0x2030, 0x00AC, 0x00BF, 0x00B9, 0x02CB, 0x00B4, 0x02C6, 0x02DC, 0x00AF,
        0x02D8, 0x02D9, 0x00A8, 0x00B2, 0x02DA, 0x00B8, 0x00B3, 0x02DD, 0x02DB, 0x02C7, 0x2014, 0x00B1, 0x00BC, 0x00BD,
        0x00BE, 0x00E0, 0x00E1, 0x00E2, 0x00E3, 0x00E4, 0x00E5, 0x00E7, 0x00E8, 0x00E9, 0x00EA, 0x00EB, 0x00EC, 0x00C6,
        0x00ED, 0x00AA, 0x00EE, 0x00EF, 0x00F0, 0x00F1, 0x0141, 0x00D8, 0x0152, 0x00BA, 0x00F2, 0x00F3, 0x00F4, 0x00F5,
        0x00F6, 0x00E6, 0x00F9, 0x00FA, 0x00FB, 0x0131, 0x00FC, 0x00FD, 0x0142, 0x00F8, 0x0153, 0x00DF, 0x00FE, 0x00FF,
        0xFFFD, 0xFFFD,
    ]
}
