import DecantCore

/// The WHATWG EUC-KR decoder (Encoding §13.1.1): Windows code page 949 (KS X 1001 plus Unified Hangul Code).
enum KoreanDecoder {
    static func decodeEUCKR(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextDecodingMode, encoding: TextEncoding
    ) throws(TextDecodingError) -> String {
        let eucKR = EncodingTables.eucKR
        return try MultiByteDecoding.decode(input, mode: mode, encoding: encoding) {
            (output, lead, index) throws(TextDecodingError) -> Int in
            guard (0x81...0xFE).contains(lead) else { return try output.invalid(at: index) }
            guard index + 1 < input.count else { return try output.truncated(at: index) }
            let trail = input[index + 1]
            var scalar: UInt32?
            if (0x41...0xFE).contains(trail) {
                scalar = DecoderOutput.codePoint((Int(lead) - 0x81) * 190 + Int(trail) - 0x41, in: eucKR)
            }
            return try output.pair(scalar, trail: trail, at: index)
        }
    }
}
