import DecantCore

/// The WHATWG shared UTF-16 decoder (Encoding §14.2), for UTF-16BE (§14.3) and UTF-16LE (§14.4).
///
/// Errors: an odd final byte, a leading surrogate not followed by a trailing one (the next code unit is decoded on
/// its own), and a lone trailing surrogate. Each is one U+FFFD at the offset of its first byte.
enum UTF16Decoder {
    static func decode(
        _ input: UnsafeBufferPointer<UInt8>, bigEndian: Bool, mode: TextDecodingMode, encoding: TextEncoding
    ) throws(TextDecodingError) -> String {
        var output = DecoderOutput(input: input, mode: mode, encoding: encoding)
        let count = input.count
        var index = 0
        @inline(__always) func unit(at offset: Int) -> UInt32 {
            let first = UInt32(input[offset])
            let second = UInt32(input[offset + 1])
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        while index < count {
            guard index + 2 <= count else {
                // A lone final byte: end-of-queue with a leading byte pending.
                try output.error(at: index)
                break
            }
            let codeUnit = unit(at: index)
            switch codeUnit {
            case 0xD800...0xDBFF:
                guard index + 4 <= count else {
                    // End-of-queue with a leading surrogate (and perhaps a leading byte) pending: one error.
                    try output.error(at: index)
                    index = count
                    continue
                }
                let trailing = unit(at: index + 2)
                if trailing >= 0xDC00 && trailing <= 0xDFFF {
                    output.append(0x10000 + ((codeUnit - 0xD800) << 10) + (trailing - 0xDC00))
                    index += 4
                } else {
                    // The next code unit is restored and decoded on its own.
                    try output.error(at: index)
                    index += 2
                }
            case 0xDC00...0xDFFF:
                try output.error(at: index)
                index += 2
            default:
                output.append(codeUnit)
                index += 2
            }
        }
        return output.makeString()
    }
}
