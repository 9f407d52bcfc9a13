/// The two media type grammars: WHATWG "parse a MIME type" and RFC 9110 `media-type`.
enum MediaTypeParser {
    private static let slash = UInt8(ascii: "/")
    private static let semicolon = UInt8(ascii: ";")
    private static let equals = UInt8(ascii: "=")
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    // MARK: WHATWG

    /// WHATWG MIME Sniffing §4.4 "parse a MIME type", on UTF-8 bytes.
    static func parseLenient(_ string: String) throws(MediaTypeParsingError) -> MediaType {
        let all = Array(string.utf8)
        func failure(_ offset: Int, _ reason: String) -> MediaTypeParsingError {
            MediaTypeParsingError(input: string, offset: offset, reason: reason)
        }
        let bytes = HTTPBytes.trimmed(all[...], where: HTTPBytes.isHTTPWhitespace)
        var position = bytes.startIndex
        let end = bytes.endIndex

        // type: up to "/"
        let typeStart = position
        while position < end, bytes[position] != slash { position += 1 }
        let typeBytes = bytes[typeStart..<position]
        if typeBytes.isEmpty { throw failure(typeStart, "the type is empty") }
        if let bad = typeBytes.firstIndex(where: { !HTTPBytes.isToken($0) }) {
            throw failure(bad, "the type contains a character that is not allowed in a token")
        }
        if position >= end { throw failure(position, "there is no \"/\" between type and subtype") }
        position += 1

        // subtype: up to ";", trailing whitespace removed
        let subtypeStart = position
        while position < end, bytes[position] != semicolon { position += 1 }
        var subtypeEnd = position
        while subtypeEnd > subtypeStart, HTTPBytes.isHTTPWhitespace(bytes[subtypeEnd - 1]) { subtypeEnd -= 1 }
        let subtypeBytes = bytes[subtypeStart..<subtypeEnd]
        if subtypeBytes.isEmpty { throw failure(subtypeStart, "the subtype is empty") }
        if let bad = subtypeBytes.firstIndex(where: { !HTTPBytes.isToken($0) }) {
            throw failure(bad, "the subtype contains a character that is not allowed in a token")
        }

        var parameters: [MediaTypeParameters.Parameter] = []
        while position < end {
            position += 1  // the ";"
            while position < end, HTTPBytes.isHTTPWhitespace(bytes[position]) { position += 1 }
            let nameStart = position
            while position < end, bytes[position] != semicolon, bytes[position] != equals { position += 1 }
            let nameBytes = bytes[nameStart..<position]
            if position < end {
                if bytes[position] == semicolon { continue }
                position += 1  // the "="
            }
            if position >= end { break }

            var valueBytes: [UInt8]
            if bytes[position] == quote {
                valueBytes = collectQuotedString(bytes, &position)
                while position < end, bytes[position] != semicolon { position += 1 }
            } else {
                let valueStart = position
                while position < end, bytes[position] != semicolon { position += 1 }
                var valueEnd = position
                while valueEnd > valueStart, HTTPBytes.isHTTPWhitespace(bytes[valueEnd - 1]) { valueEnd -= 1 }
                valueBytes = Array(bytes[valueStart..<valueEnd])
                if valueBytes.isEmpty { continue }
            }

            guard HTTPBytes.isToken(nameBytes), HTTPBytes.isQuotedStringTokenText(valueBytes) else { continue }
            let name = HTTPBytes.lowercasedString(nameBytes)
            if parameters.contains(where: { $0.name == name }) { continue }
            parameters.append(.init(name: name, value: String(decoding: valueBytes, as: UTF8.self)))
        }

        return MediaType(
            uncheckedType: HTTPBytes.lowercasedString(typeBytes),
            subtype: HTTPBytes.lowercasedString(subtypeBytes),
            parameters: MediaTypeParameters(unchecked: parameters)
        )
    }

    /// WHATWG Fetch "collect an HTTP quoted string" with the extract-value flag set. `position` is at the `"`.
    private static func collectQuotedString(_ bytes: ArraySlice<UInt8>, _ position: inout Int) -> [UInt8] {
        var value: [UInt8] = []
        let end = bytes.endIndex
        position += 1
        while true {
            while position < end, bytes[position] != quote, bytes[position] != backslash {
                value.append(bytes[position])
                position += 1
            }
            if position >= end { break }
            let quoteOrBackslash = bytes[position]
            position += 1
            if quoteOrBackslash == backslash {
                if position >= end {
                    value.append(backslash)
                    break
                }
                value.append(bytes[position])
                position += 1
            } else {
                break
            }
        }
        return value
    }

    // MARK: RFC 9110

    /// RFC 9110 §8.3.1: `type "/" subtype *( OWS ";" OWS [ token "=" ( token / quoted-string ) ] )`.
    ///
    /// Stricter than the grammar in one way: a parameter name given twice is rejected, because its meaning would
    /// depend on which copy a reader keeps.
    static func parseStrict(_ string: String) throws(MediaTypeParsingError) -> MediaType {
        let bytes = Array(string.utf8)
        var position = 0
        let end = bytes.count
        func failure(_ offset: Int, _ reason: String) -> MediaTypeParsingError {
            MediaTypeParsingError(input: string, offset: offset, reason: reason)
        }
        func token(_ what: String) throws(MediaTypeParsingError) -> ArraySlice<UInt8> {
            let start = position
            while position < end, HTTPBytes.isToken(bytes[position]) { position += 1 }
            if start == position {
                if position < end {
                    throw failure(position, "expected the \(what) but found \(describe(bytes[position]))")
                }
                throw failure(position, "expected the \(what) but the text ended")
            }
            return bytes[start..<position]
        }

        let typeBytes = try token("type")
        guard position < end, bytes[position] == slash else {
            throw failure(position, "expected \"/\" after the type")
        }
        position += 1
        let subtypeBytes = try token("subtype")

        var parameters: [MediaTypeParameters.Parameter] = []
        while position < end {
            while position < end, HTTPBytes.isOWS(bytes[position]) { position += 1 }
            if position >= end { throw failure(position, "trailing whitespace is not allowed") }
            guard bytes[position] == semicolon else {
                throw failure(position, "expected \";\" before a parameter but found \(describe(bytes[position]))")
            }
            position += 1
            while position < end, HTTPBytes.isOWS(bytes[position]) { position += 1 }
            // An empty parameter (";;" or a trailing ";") is allowed by the grammar.
            if position >= end || bytes[position] == semicolon { continue }
            let nameStart = position
            let nameBytes = try token("parameter name")
            guard position < end, bytes[position] == equals else {
                throw failure(position, "expected \"=\" after the parameter name")
            }
            position += 1
            var value: [UInt8] = []
            if position < end, bytes[position] == quote {
                position += 1
                var closed = false
                while position < end {
                    let byte = bytes[position]
                    if byte == quote {
                        closed = true
                        position += 1
                        break
                    }
                    if byte == backslash {
                        position += 1
                        guard position < end, isQuotedPairText(bytes[position]) else {
                            throw failure(position, "a backslash must be followed by a visible character")
                        }
                    } else if !isQuotedText(byte) {
                        throw failure(position, "\(describe(byte)) is not allowed in a quoted string")
                    }
                    value.append(bytes[position])
                    position += 1
                }
                if !closed { throw failure(position, "the quoted string is not closed") }
            } else {
                value = Array(try token("parameter value"))
            }
            let name = HTTPBytes.lowercasedString(nameBytes)
            if parameters.contains(where: { $0.name == name }) {
                throw failure(nameStart, "the parameter \"\(name)\" is given twice")
            }
            parameters.append(.init(name: name, value: String(decoding: value, as: UTF8.self)))
        }
        return MediaType(
            uncheckedType: HTTPBytes.lowercasedString(typeBytes),
            subtype: HTTPBytes.lowercasedString(subtypeBytes),
            parameters: MediaTypeParameters(unchecked: parameters)
        )
    }

    /// RFC 9110 `qdtext`: HTAB, SP, 0x21, 0x23-0x5B, 0x5D-0x7E, obs-text.
    private static func isQuotedText(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x20 || byte == 0x21 || (0x23...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
            || byte >= 0x80
    }

    /// RFC 9110 `quoted-pair` second byte: HTAB, SP, VCHAR, obs-text.
    private static func isQuotedPairText(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x20 || (0x21...0x7E).contains(byte) || byte >= 0x80
    }

    private static func describe(_ byte: UInt8) -> String {
        if (0x21...0x7E).contains(byte) { return "\"\(Character(Unicode.Scalar(byte)))\"" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}
