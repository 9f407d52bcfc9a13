#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Base64 as XML property lists hold it in `<data>`: whitespace anywhere, padding optional.
enum PropertyListBase64 {
    /// The bytes of `text`, or `nil` when it is not valid base64.
    ///
    /// Reads what `Data(base64Encoded:)` reads once spaces, tabs, carriage returns and line feeds are removed and
    /// the text is padded with `=` to a multiple of 4. Canonical input is decoded here; anything unusual (padding
    /// that is not at the end, non-zero bits in the last character) goes to `Data(base64Encoded:)` itself.
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> Data? {
        if let data = decodeCanonical(text) { return data }
        let content = String(decoding: text, as: UTF8.self)
        let compact = String(content.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })
        let padded = compact + String(repeating: "=", count: (4 - compact.utf8.count % 4) % 4)
        return Data(base64Encoded: padded)
    }

    /// The 6-bit value of a base64 character, or 0xFF.
    @inline(__always)
    private static func sextet(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte &- UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte &- UInt8(ascii: "a") &+ 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte &- UInt8(ascii: "0") &+ 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return 0xFF
        }
    }

    /// Decodes alphabet characters and whitespace followed by at most the right number of `=`; `nil` otherwise.
    private static func decodeCanonical(_ text: UnsafeBufferPointer<UInt8>) -> Data? {
        var characters = 0
        var padding = 0
        for byte in text {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if byte == UInt8(ascii: "=") {
                padding += 1
            } else if padding > 0 || sextet(byte) == 0xFF {
                return nil
            } else {
                characters += 1
            }
        }
        let remainder = characters % 4
        guard remainder != 1, padding <= (4 - remainder) % 4 else { return nil }
        let length = characters / 4 * 3 + (remainder == 0 ? 0 : remainder - 1)
        var data = Data(count: length)
        let valid = data.withUnsafeMutableBytes { (output: UnsafeMutableRawBufferPointer) -> Bool in
            var accumulator: UInt32 = 0
            var pending = 0
            var written = 0
            for byte in text {
                let value = sextet(byte)
                if value == 0xFF { continue }
                accumulator = accumulator << 6 | UInt32(value)
                pending += 1
                if pending == 4 {
                    output[written] = UInt8(truncatingIfNeeded: accumulator >> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: accumulator)
                    written += 3
                    pending = 0
                    accumulator = 0
                }
            }
            switch pending {
            case 2:
                guard accumulator & 0x0F == 0 else { return false }
                output[written] = UInt8(truncatingIfNeeded: accumulator >> 4)
            case 3:
                guard accumulator & 0x03 == 0 else { return false }
                output[written] = UInt8(truncatingIfNeeded: accumulator >> 10)
                output[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
            default:
                break
            }
            return true
        }
        return valid ? data : nil
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Appends the padded Base64 (RFC 4648 §4) of `bytes` to `output`, without line breaks.
    static func encode(_ bytes: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        alphabet.withUnsafeBufferPointer { table in
            var index = 0
            while index + 3 <= bytes.count {
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                output.append(table[Int(group >> 18)])
                output.append(table[Int(group >> 12 & 0x3F)])
                output.append(table[Int(group >> 6 & 0x3F)])
                output.append(table[Int(group & 0x3F)])
                index += 3
            }
            let rest = bytes.count - index
            guard rest > 0 else { return }
            let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            output.append(table[Int(group >> 18)])
            output.append(table[Int(group >> 12 & 0x3F)])
            output.append(rest == 2 ? table[Int(group >> 6 & 0x3F)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
    }
}
