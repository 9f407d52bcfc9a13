/// Small pieces of RFC 5322 / RFC 9110 header syntax: tokens, `;`-separated parameters, RFC 8187 extended values.
enum HeaderSyntax {
    /// Whether `byte` is a `tchar` of RFC 9110 §5.6.2.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// A `Content-Disposition` value (RFC 6266 / RFC 7578): the disposition type lowercased and the parameters,
    /// names lowercased, values unquoted (backslash escapes removed) and read as UTF-8, in order.
    static func disposition(_ value: String) -> (type: String, parameters: [(name: String, value: String)]) {
        let bytes = Array(value.utf8)
        var index = 0
        func skipSpace() { while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 } }
        func token() -> [UInt8] {
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: ";"), bytes[index] != UInt8(ascii: "="),
                bytes[index] != 0x20, bytes[index] != 0x09
            {
                index += 1
            }
            return Array(bytes[start..<index])
        }
        skipSpace()
        let type = String(decoding: token(), as: UTF8.self).lowercased()
        var parameters: [(name: String, value: String)] = []
        while index < bytes.count {
            // Up to the next `;`, then one parameter.
            while index < bytes.count, bytes[index] != UInt8(ascii: ";") { index += 1 }
            guard index < bytes.count else { break }
            index += 1
            skipSpace()
            let name = String(decoding: token(), as: UTF8.self).lowercased()
            skipSpace()
            guard !name.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "=") else { continue }
            index += 1
            skipSpace()
            var valueBytes: [UInt8] = []
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                    valueBytes.append(bytes[index])
                    index += 1
                }
                if index < bytes.count { index += 1 }
            } else {
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: ";") { index += 1 }
                var end = index
                while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
                valueBytes = Array(bytes[start..<end])
            }
            parameters.append((name, String(decoding: valueBytes, as: UTF8.self)))
        }
        return (type, parameters)
    }

    /// An RFC 8187 `ext-value` (`UTF-8'en'%E2%82%AC%20rates`) decoded, or `nil` when its charset is neither UTF-8
    /// nor ISO-8859-1, its percent-encoding is broken or the bytes are not valid in the charset.
    static func extendedValue(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3 else { return nil }
        let charset = pieces[0].lowercased()
        var bytes: [UInt8] = []
        let encoded = Array(pieces[2].utf8)
        var index = 0
        while index < encoded.count {
            let byte = encoded[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < encoded.count, let high = hexValue(encoded[index + 1]),
                    let low = hexValue(encoded[index + 2])
                else { return nil }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte)
                index += 1
            }
        }
        switch charset {
        case "utf-8":
            // Decoding gives valid UTF-8 back byte for byte and turns anything invalid into U+FFFD, so the round trip
            // validates. (`String(validating:as:)` says the same but needs macOS 15 / iOS 18.)
            let string = String(decoding: bytes, as: UTF8.self)
            return string.utf8.elementsEqual(bytes) ? string : nil
        case "iso-8859-1": return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default: return nil
        }
    }

    /// The value of an ASCII hex digit, or `nil`.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
