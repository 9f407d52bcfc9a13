#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Undoes a part's `Content-Transfer-Encoding` (RFC 2045 §6): `base64` and `quoted-printable` are decoded; the
/// identity encodings are left as they are.
enum TransferEncoding {
    /// What went wrong while decoding: a message and the offset of the bad byte in the encoded bytes.
    struct Failure: Error {
        let message: String
        let offset: Int
    }

    /// Base64 (RFC 2045 §6.8): line breaks and other whitespace are skipped; `=` padding ends the data; any other
    /// byte outside the alphabet is an error. The output is allocated once, at most 3/4 of the input.
    static func base64(_ data: Data) throws(Failure) -> Data {
        var output = Data()
        output.reserveCapacity(data.count / 4 * 3 + 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = false
        var offset = 0
        for byte in data {
            defer { offset += 1 }
            let value: UInt32
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="):
                padding = true
                continue
            case 0x20, 0x09, 0x0D, 0x0A: continue
            default:
                throw Failure(
                    message: "The base64 part has the byte 0x\(String(byte, radix: 16)), which is not in the base64 "
                        + "alphabet. Encode the part with base64 as RFC 2045 §6.8 defines it.",
                    offset: offset)
            }
            guard !padding else {
                throw Failure(
                    message: "The base64 part has data after its '=' padding. Send the padding only at the end.",
                    offset: offset)
            }
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return output
    }

    /// Quoted-printable (RFC 2045 §6.7): `=XX` is a byte, `=` at the end of a line is a soft line break, and
    /// whitespace at the end of a line is dropped (RFC 2045 rule 3; Python's `binascii.a2b_qp` keeps it); hard line breaks
    /// are kept as sent. A `=` not followed by two hex digits is kept as it is (rule 1's
    /// robustness advice), as Python's `quopri` does.
    static func quotedPrintable(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var output = Data()
        output.reserveCapacity(bytes.count)
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let hasBreak = lineEnd < bytes.count
            var contentEnd = lineEnd
            while contentEnd > lineStart, [0x20, 0x09, 0x0D].contains(bytes[contentEnd - 1]) { contentEnd -= 1 }
            var index = lineStart
            var softBreak = false
            while index < contentEnd {
                let byte = bytes[index]
                if byte == UInt8(ascii: "=") {
                    if index + 1 == contentEnd {
                        softBreak = true
                        index += 1
                        continue
                    }
                    if index + 2 < contentEnd, let high = HeaderSyntax.hexValue(bytes[index + 1]),
                        let low = HeaderSyntax.hexValue(bytes[index + 2])
                    {
                        output.append(high << 4 | low)
                        index += 3
                        continue
                    }
                }
                output.append(byte)
                index += 1
            }
            // A hard line break is kept as it was sent (CRLF or LF), as Python's `quopri.decodestring` keeps it.
            if hasBreak && !softBreak {
                if lineEnd > lineStart, bytes[lineEnd - 1] == 0x0D { output.append(0x0D) }
                output.append(0x0A)
            }
            lineStart = lineEnd + 1
        }
        return output
    }
}
