/// The one way Decant writes a JSON string literal (RFC 8259 §7), shared by the JSON writer, canonical forms and the
/// tool's output: `"` and `\` are escaped, control characters become `\b \f \n \r \t` or `\u00XX` (lower-case hex),
/// and everything else, `/` and non-ASCII included, is kept as UTF-8.
package enum JSONStringEscaping {
    /// Appends the content of the literal for the UTF-8 `bytes` (without the quotes) to `output`.
    @inlinable
    package static func appendEscaped<Bytes: Collection<UInt8>>(_ bytes: Bytes, to output: inout [UInt8]) {
        var runStart = bytes.startIndex
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                output.append(contentsOf: bytes[runStart..<index])
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22: output.append(0x22)
                case 0x5C: output.append(0x5C)
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                default:
                    output.append(contentsOf: "u00".utf8)
                    output.append(hexDigit(byte >> 4))
                    output.append(hexDigit(byte & 0xF))
                }
                runStart = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        output.append(contentsOf: bytes[runStart...])
    }

    /// `text` as a JSON string literal, quotes included.
    package static func literal(_ text: String) -> String {
        var output: [UInt8] = [UInt8(ascii: "\"")]
        output.reserveCapacity(text.utf8.count + 2)
        appendEscaped(text.utf8, to: &output)
        output.append(UInt8(ascii: "\""))
        return String(decoding: output, as: UTF8.self)
    }

    /// The lower-case hexadecimal digit of `value` (0–15).
    @inlinable
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 + value : 0x61 + value - 10
    }
}
