import DecantCore

/// The WHATWG legacy multi-byte Chinese decoders: gb18030 (Encoding §10.2, also GBK's, §10.1) and Big5 (§11.1).
///
/// Restoring bytes to the input (the standard's "restore") is not advancing past them; errors are reported at the
/// offset of the sequence's first byte.
enum ChineseDecoders {
    /// The standard's "index gb18030 ranges code point" (§5) for a four-byte `pointer`, or `nil`.
    static func gb18030RangesCodePoint(_ pointer: Int) -> UInt32? {
        if (pointer > 39419 && pointer < 189000) || pointer > 1_237_575 || pointer < 0 { return nil }
        if pointer == 7457 { return 0xE7C7 }
        let pointers = EncodingTables.gb18030RangePointers
        let codePoints = EncodingTables.gb18030RangeCodePoints
        // The last range whose pointer is <= `pointer` (binary search; the first range starts at 0).
        var low = 0
        var high = min(pointers.count, codePoints.count)
        while high - low > 1 {
            let middle = (low + high) / 2
            if Int(pointers[middle]) <= pointer { low = middle } else { high = middle }
        }
        guard low < pointers.count, low < codePoints.count, Int(pointers[low]) <= pointer else { return nil }
        let value = Int(codePoints[low]) + pointer - Int(pointers[low])
        return value >= 0 && value <= 0x10FFFF ? UInt32(value) : nil
    }

    /// gb18030 and GBK (§10.2.1).
    static func decodeGB18030(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextDecodingMode, encoding: TextEncoding
    ) throws(TextDecodingError) -> String {
        let index2 = EncodingTables.gb18030
        let count = input.count
        return try MultiByteDecoding.decode(input, mode: mode, encoding: encoding) {
            (output, first, index) throws(TextDecodingError) -> Int in
            if first == 0x80 {
                output.append(0x20AC)
                return 1
            }
            guard first != 0xFF else { return try output.invalid(at: index) }
            // A leading byte 0x81-0xFE.
            guard index + 1 < count else { return try output.truncated(at: index) }
            let second = input[index + 1]
            if (0x30...0x39).contains(second) {
                // Four-byte sequence: first, second (0x30-0x39), third (0x81-0xFE), fourth (0x30-0x39).
                guard index + 2 < count else { return try output.truncated(at: index) }
                let third = input[index + 2]
                guard (0x81...0xFE).contains(third) else {
                    // Restore second and third: decode again from the second byte.
                    return try output.invalid(at: index)
                }
                guard index + 3 < count else { return try output.truncated(at: index) }
                let fourth = input[index + 3]
                guard (0x30...0x39).contains(fourth) else {
                    // Restore second, third and fourth.
                    return try output.invalid(at: index)
                }
                let pointer =
                    (Int(first) - 0x81) * (10 * 126 * 10) + (Int(second) - 0x30) * (10 * 126)
                    + (Int(third) - 0x81) * 10 + Int(fourth) - 0x30
                if let scalar = gb18030RangesCodePoint(pointer) {
                    output.append(scalar)
                } else {
                    try output.error(at: index)
                }
                return 4
            }
            // Two-byte sequence.
            var scalar: UInt32?
            if (0x40...0x7E).contains(second) || (0x80...0xFE).contains(second) {
                let offset = second < 0x7F ? 0x40 : 0x41
                scalar = DecoderOutput.codePoint((Int(first) - 0x81) * 190 + Int(second) - offset, in: index2)
            }
            return try output.pair(scalar, trail: second, at: index)
        }
    }

    /// The four Big5 pointers that decode to two code points (a letter and a combining mark), §11.1.1.
    @inline(__always)
    static func big5Pair(_ pointer: Int) -> (UInt32, UInt32)? {
        switch pointer {
        case 1133: (0x00CA, 0x0304)
        case 1135: (0x00CA, 0x030C)
        case 1164: (0x00EA, 0x0304)
        case 1166: (0x00EA, 0x030C)
        default: nil
        }
    }

    /// Big5 (§11.1.1).
    static func decodeBig5(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextDecodingMode, encoding: TextEncoding
    ) throws(TextDecodingError) -> String {
        let big5 = EncodingTables.big5
        return try MultiByteDecoding.decode(input, mode: mode, encoding: encoding) {
            (output, lead, index) throws(TextDecodingError) -> Int in
            guard (0x81...0xFE).contains(lead) else { return try output.invalid(at: index) }
            guard index + 1 < input.count else { return try output.truncated(at: index) }
            let trail = input[index + 1]
            var scalar: UInt32?
            if (0x40...0x7E).contains(trail) || (0xA1...0xFE).contains(trail) {
                let offset = trail < 0x7F ? 0x40 : 0x62
                let pointer = (Int(lead) - 0x81) * 157 + Int(trail) - offset
                if let (letter, mark) = big5Pair(pointer) {
                    output.append(letter)
                    output.append(mark)
                    return 2
                }
                if pointer < big5.count, big5[pointer] != 0 { scalar = big5[pointer] }
            }
            return try output.pair(scalar, trail: trail, at: index)
        }
    }
}
