import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The WHATWG single-byte encoder (Encoding §9.2), also used for x-user-defined (§14.5) and true ISO-8859-1.
///
/// A code point below U+0080 is its own byte; any other is looked up in the reverse of the encoding's index (built
/// once from the table the decoder uses, `EncodingTables.singleByte`): U+0080-U+00FF directly, the others by binary
/// search over at most 128 entries.
enum SingleByteEncoder {
    /// The reverse of one single-byte index.
    struct Reverse: Sendable {
        /// The byte for U+0080 + i, or 0 when the index has none (0 is never a byte of the index: it is ASCII).
        let latin1Block: [UInt8]
        /// The code points above U+00FF the index holds, increasing.
        let codePoints: [UInt16]
        /// The byte for each of ``codePoints``.
        let bytes: [UInt8]

        /// The reverse of the 128 code points of bytes 0x80-0xFF (0 where a byte has none); the first byte wins
        /// (the standard's "index pointer").
        init(_ index: ArraySlice<UInt16>) {
            var latin1Block = [UInt8](repeating: 0, count: 128)
            var others: [UInt16: UInt8] = [:]
            for (pointer, codePoint) in index.enumerated() where codePoint != 0 && pointer < 128 {
                let byte = UInt8(0x80 + pointer)
                if codePoint < 0x80 {
                    continue
                } else if codePoint < 0x100 {
                    if latin1Block[Int(codePoint) - 0x80] == 0 { latin1Block[Int(codePoint) - 0x80] = byte }
                } else if others[codePoint] == nil {
                    others[codePoint] = byte
                }
            }
            self.latin1Block = latin1Block
            let sorted = others.sorted { $0.key < $1.key }
            codePoints = sorted.map(\.key)
            bytes = sorted.map(\.value)
        }

        /// The byte for `codePoint` (at least U+0080), or `nil`.
        @inline(__always)
        func byte(for codePoint: UInt32) -> UInt8? {
            if codePoint < 0x100 {
                let byte = latin1Block[Int(codePoint) - 0x80]
                return byte == 0 ? nil : byte
            }
            guard codePoint <= 0xFFFF else { return nil }
            let value = UInt16(codePoint)
            var low = 0
            var high = codePoints.count
            while low < high {
                let middle = (low + high) / 2
                if codePoints[middle] == value { return bytes[middle] }
                if codePoints[middle] < value { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }

    /// The reverse of each WHATWG single-byte index, by index name, built on first use.
    static let reverseByIndex: [String: Reverse] = {
        let names = EncodingTables.singleByteNames.split(whereSeparator: { $0 == " " || $0 == "\n" })
        let indexes = EncodingTables.singleByte
        var reverses: [String: Reverse] = [:]
        for (position, name) in names.enumerated() where (position + 1) * 128 <= indexes.count {
            reverses[String(name)] = Reverse(indexes[(position * 128)..<((position + 1) * 128)])
        }
        return reverses
    }()

    /// Encodes `input` (well-formed UTF-8) with the single-byte index `name`.
    static func encode(
        _ input: UnsafeBufferPointer<UInt8>, index name: String, mode: TextEncodingMode, encoding: TextEncoding
    ) -> Result<Data, SerializationError> {
        let reverse = reverseByIndex[name] ?? Reverse([])
        return EncodingLoop.run(input, encoding: encoding, mode: mode) { codePoint, output in
            guard let byte = reverse.byte(for: codePoint) else { return false }
            output.append(byte)
            return true
        }
    }

    /// x-user-defined (§14.5.2): U+F780-U+F7FF become bytes 0x80-0xFF.
    static func encodeXUserDefined(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextEncodingMode, encoding: TextEncoding
    ) -> Result<Data, SerializationError> {
        EncodingLoop.run(input, encoding: encoding, mode: mode) { codePoint, output in
            guard (0xF780...0xF7FF).contains(codePoint) else { return false }
            output.append(UInt8(codePoint - 0xF780 + 0x80))
            return true
        }
    }

    /// True ISO-8859-1: U+0080-U+00FF become the byte of the same value.
    static func encodeISOLatin1(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextEncodingMode, encoding: TextEncoding
    ) -> Result<Data, SerializationError> {
        EncodingLoop.run(input, encoding: encoding, mode: mode) { codePoint, output in
            guard codePoint < 0x100 else { return false }
            output.append(UInt8(codePoint))
            return true
        }
    }
}
