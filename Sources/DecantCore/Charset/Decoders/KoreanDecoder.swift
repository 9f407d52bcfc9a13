/// The WHATWG EUC-KR decoder (Encoding §13.1.1): Windows code page 949 (KS X 1001 plus Unified Hangul Code).
enum KoreanDecoder {
    static func decodeEUCKR(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextDecodingMode, encoding: TextEncoding
    ) throws(TextDecodingError) -> String {
        var output = DecoderOutput(input: input, mode: mode, encoding: encoding)
        let eucKR = EncodingTables.eucKR
        let count = input.count
        var index = 0
        while index < count {
            let leading = input[index]
            if leading < 0x80 {
                output.appendASCII(leading)
                index += 1
                continue
            }
            guard (0x81...0xFE).contains(leading) else {
                try output.error(at: index)
                index += 1
                continue
            }
            guard index + 1 < count else {
                try output.error(at: index)
                break
            }
            let trailing = input[index + 1]
            if (0x41...0xFE).contains(trailing) {
                let pointer = (Int(leading) - 0x81) * 190 + Int(trailing) - 0x41
                if pointer < eucKR.count, eucKR[pointer] != 0 {
                    output.append(UInt32(eucKR[pointer]))
                    index += 2
                    continue
                }
            }
            // An ASCII trailing byte is restored: decoded again on its own.
            try output.error(at: index)
            index += trailing < 0x80 ? 1 : 2
        }
        return output.makeString()
    }
}
