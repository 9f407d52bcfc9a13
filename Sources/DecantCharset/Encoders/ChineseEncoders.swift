import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The WHATWG legacy multi-byte Chinese encoders: gb18030 and GBK (Encoding §10.2.2, GBK being gb18030 with the
/// "gbk flag") and Big5 (§11.1.2).
enum ChineseEncoders {
    /// The standard's "index gb18030 ranges pointer" (§5) for a code point that index gb18030 lacks: the pointer of
    /// the last range starting at or below it, plus its distance from the range's first code point.
    static func gb18030RangesPointer(_ codePoint: UInt32) -> Int {
        if codePoint == 0xE7C7 { return 7457 }
        let pointers = EncodingTables.gb18030RangePointers
        let codePoints = EncodingTables.gb18030RangeCodePoints
        var low = 0
        var high = min(pointers.count, codePoints.count)
        while high - low > 1 {
            let middle = (low + high) / 2
            if codePoints[middle] <= codePoint { low = middle } else { high = middle }
        }
        guard low < pointers.count, low < codePoints.count else { return 0 }
        return Int(pointers[low]) + Int(codePoint) - Int(codePoints[low])
    }

    /// gb18030, or GBK when `gbk` is set (§10.2.2).
    static func encodeGB18030(
        _ input: UnsafeBufferPointer<UInt8>, gbk: Bool, mode: TextEncodingMode, encoding: TextEncoding
    ) -> Result<Data, SerializationError> {
        let index = ReverseIndexes.gb18030
        return EncodingLoop.run(input, encoding: encoding, mode: mode) { codePoint, output in
            // U+E5E5 has no bytes: 0xA3 0xA0 decodes to U+3000 (§10.2.2 step 3).
            if codePoint == 0xE5E5 { return false }
            if gbk && codePoint == 0x20AC {
                output.append(0x80)
                return true
            }
            if let pointer = index.pointer(for: codePoint) {
                let trail = pointer % 190
                output.append(UInt8(pointer / 190 + 0x81))
                output.append(UInt8(trail + (trail < 0x3F ? 0x40 : 0x41)))
                return true
            }
            if gbk { return false }
            // Four bytes: 0x81-0xFE, 0x30-0x39, 0x81-0xFE, 0x30-0x39.
            var pointer = gb18030RangesPointer(codePoint)
            let first = pointer / (10 * 126 * 10)
            pointer %= 10 * 126 * 10
            let second = pointer / (10 * 126)
            pointer %= 10 * 126
            output.append(UInt8(truncatingIfNeeded: first + 0x81))
            output.append(UInt8(truncatingIfNeeded: second + 0x30))
            output.append(UInt8(truncatingIfNeeded: pointer / 10 + 0x81))
            output.append(UInt8(truncatingIfNeeded: pointer % 10 + 0x30))
            return true
        }
    }

    /// Big5 (§11.1.2), through the standard's "index Big5 pointer" (``ReverseIndexes/big5``).
    static func encodeBig5(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextEncodingMode, encoding: TextEncoding
    ) -> Result<Data, SerializationError> {
        let index = ReverseIndexes.big5
        return EncodingLoop.run(input, encoding: encoding, mode: mode) { codePoint, output in
            guard let pointer = index.pointer(for: codePoint) else { return false }
            let trail = pointer % 157
            output.append(UInt8(truncatingIfNeeded: pointer / 157 + 0x81))
            output.append(UInt8(trail + (trail < 0x3F ? 0x40 : 0x62)))
            return true
        }
    }
}
