/// The WHATWG UTF-8 decoder (Encoding §8.1.1), as a validating scan with an eight-bytes-at-a-time ASCII path.
///
/// Valid input (the common case) is validated once, by the standard library where it can (`String(validating:as:)`),
/// else by the scan below, and becomes a string as it is. Invalid input is copied run by run with one U+FFFD per maximal subpart: the lead byte and the continuation bytes that were valid
/// for it, exactly the sequences the standard's decoder turns into one error (and the Unicode "best practice").
enum UTF8Decoder {
    static func decode(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextDecodingMode, encoding: TextEncoding
    ) throws(TextDecodingError) -> String {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            // The standard library's validator is the fastest path for valid input, which is the common case; its
            // notion of valid UTF-8 (no overlongs, surrogates or code points above U+10FFFF) is the standard's.
            if let text = String(validating: input, as: UTF8.self) { return text }
        }
        guard var invalid = firstInvalidSequence(in: input, from: 0) else {
            return String(decoding: input, as: UTF8.self)
        }
        if mode == .strict { throw TextDecodingError(encoding: encoding, offset: invalid.offset, input: input) }
        var output: [UInt8] = []
        output.reserveCapacity(input.count + 16)
        var position = 0
        while true {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: input[position..<invalid.offset]))
            output.append(0xEF)
            output.append(0xBF)
            output.append(0xBD)
            position = invalid.offset + invalid.length
            guard let next = firstInvalidSequence(in: input, from: position) else { break }
            invalid = next
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: input[position..<input.count]))
        return String(decoding: output, as: UTF8.self)
    }

    /// The first invalid sequence at or after `start`: its offset and the length of its maximal subpart (at least
    /// 1), or `nil` when the rest of the input is valid UTF-8.
    static func firstInvalidSequence(
        in input: UnsafeBufferPointer<UInt8>, from start: Int
    ) -> (offset: Int, length: Int)? {
        guard let base = input.baseAddress else { return nil }
        let count = input.count
        var index = max(0, start)
        while index < count {
            // ASCII fast path: eight bytes at a time, then skip the ASCII bytes before the first non-ASCII one.
            if index + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let high = word & 0x8080_8080_8080_8080
                if high == 0 {
                    index += 8
                    continue
                }
                index += high.trailingZeroBitCount / 8
            }
            let lead = input[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // §8.1.1: the bytes needed and the bounds of the first continuation byte, by lead byte.
            let needed: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: needed = 1
            case 0xE0:
                needed = 2
                lower = 0xA0
            case 0xE1...0xEC, 0xEE, 0xEF: needed = 2
            case 0xED:
                needed = 2
                upper = 0x9F
            case 0xF0:
                needed = 3
                lower = 0x90
            case 0xF1...0xF3: needed = 3
            case 0xF4:
                needed = 3
                upper = 0x8F
            default: return (index, 1)
            }
            var next = index + 1
            for _ in 0..<needed {
                guard next < count else { return (index, next - index) }
                let byte = input[next]
                guard byte >= lower && byte <= upper else { return (index, next - index) }
                lower = 0x80
                upper = 0xBF
                next += 1
            }
            index = next
        }
        return nil
    }
}
