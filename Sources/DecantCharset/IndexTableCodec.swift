import DecantCore

/// Decodes the compact index tables that `Tables/generate_tables.py` writes into `Tables/EncodingTables*.swift`.
///
/// Each table is a base64 string (line breaks ignored) of a stream of unsigned LEB128 varints, one per pointer:
/// `0` means the index has no code point for the pointer (the array holds 0), `z + 1` means the previous code point
/// (initially 0) plus the zigzag-decoded `z`. The tables are decoded once, on first use, into `static let` arrays.
///
/// The decoder never traps: malformed data (which only a broken generator could produce) leaves zeros, and the
/// result always has exactly `count` elements, so decoders can rely on `count` for their bounds checks.
enum IndexTableCodec {
    /// Decodes a table whose code points are all in the Basic Multilingual Plane.
    static func decode16(_ text: String, count: Int) -> [UInt16] {
        decode32(text, count: count).map { $0 <= 0xFFFF ? UInt16($0) : 0 }
    }

    /// Decodes a table of code points (or of other non-negative integers below 2^32).
    static func decode32(_ text: String, count: Int) -> [UInt32] {
        var values = [UInt32](repeating: 0, count: max(0, count))
        let bytes = base64Decoded(text)
        var index = 0
        var position = 0
        var previous: Int64 = 0
        while index < values.count, position < bytes.count {
            // One LEB128 varint (at most 5 bytes for 32-bit tokens).
            var token: UInt64 = 0
            var shift: UInt64 = 0
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if shift < 35 { token |= UInt64(byte & 0x7F) << shift }
                shift += 7
                if byte & 0x80 == 0 { break }
            }
            if token != 0 {
                let zigzag = Int64(truncatingIfNeeded: token - 1)
                let delta = (zigzag & 1) == 0 ? zigzag >> 1 : -((zigzag + 1) >> 1)
                previous &+= delta
                values[index] = previous >= 0 && previous <= Int64(UInt32.max) ? UInt32(previous) : 0
            }
            index += 1
        }
        return values
    }

    /// The bytes of a base64 text; characters outside the base64 alphabet (line breaks, padding) are skipped.
    static func base64Decoded(_ text: String) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text.utf8 {
            let value: UInt32
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(character - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(character - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(character - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            default: continue
            }
            accumulator = (accumulator << 6) | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output
    }
}
