import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The WHATWG EUC-KR encoder (Encoding §13.1.2).
enum KoreanEncoder {
    /// EUC-KR: the pointer in index EUC-KR as two bytes, 0x81-0xFE and 0x41-0xFE.
    static func encodeEUCKR(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextEncodingMode, encoding: TextEncoding
    ) -> Result<Data, SerializationError> {
        let index = ReverseIndexes.eucKR
        return EncodingLoop.run(input, encoding: encoding, mode: mode) { codePoint, output in
            guard let pointer = index.pointer(for: codePoint) else { return false }
            output.append(UInt8(truncatingIfNeeded: pointer / 190 + 0x81))
            output.append(UInt8(pointer % 190 + 0x41))
            return true
        }
    }
}
