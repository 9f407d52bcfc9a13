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

extension TransferEncoding {
    /// The base64 alphabet (RFC 2045 §6.8).
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `data` in base64, in lines of 76 characters separated by CRLF (RFC 2045 §6.8).
    static func encodeBase64(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var output = [UInt8]()
        output.reserveCapacity((bytes.count + 2) / 3 * 4 + bytes.count / 57 * 2 + 2)
        var index = 0
        var lineLength = 0
        while index < bytes.count {
            if lineLength == 76 {
                output.append(contentsOf: [0x0D, 0x0A])
                lineLength = 0
            }
            let count = min(3, bytes.count - index)
            let b0 = UInt32(bytes[index])
            let b1 = count > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = count > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(count > 1 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            output.append(count > 2 ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
            index += 3
            lineLength += 4
        }
        return Data(output)
    }

    /// `data` in quoted-printable (RFC 2045 §6.7): printable ASCII other than `=` as it is, every other byte
    /// (spaces, tabs and line breaks included, so no line ends in whitespace and the bytes come back exactly) as
    /// `=XX`, in lines of at most 76 characters joined by soft line breaks.
    static func encodeQuotedPrintable(_ data: Data) -> Data {
        let digits = Array("0123456789ABCDEF".utf8)
        var output = [UInt8]()
        output.reserveCapacity(data.count + data.count / 8)
        var lineLength = 0
        for byte in data {
            let literal = byte >= 33 && byte <= 126 && byte != UInt8(ascii: "=")
            let width = literal ? 1 : 3
            if lineLength + width > 75 {
                output.append(contentsOf: [UInt8(ascii: "="), 0x0D, 0x0A])
                lineLength = 0
            }
            if literal {
                output.append(byte)
            } else {
                output.append(contentsOf: [UInt8(ascii: "="), digits[Int(byte >> 4)], digits[Int(byte & 15)]])
            }
            lineLength += width
        }
        return Data(output)
    }
}
