import DecantCore

/// The WHATWG legacy multi-byte Japanese decoders (Encoding §12): EUC-JP, ISO-2022-JP and Shift_JIS.
///
/// The standard's handlers read one byte at a time and "restore" bytes to the input on errors; with the whole input
/// at hand, restoring is just not advancing past those bytes. An error is reported at the offset of the first byte
/// of the sequence that failed (the lead byte, or the ESC of an escape sequence).
enum JapaneseDecoders {
    /// Shift_JIS (§12.3.1).
    static func decodeShiftJIS(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextDecodingMode, encoding: TextEncoding
    ) throws(TextDecodingError) -> String {
        let jis0208 = EncodingTables.jis0208
        return try MultiByteDecoding.decode(input, mode: mode, encoding: encoding) {
            (output, lead, index) throws(TextDecodingError) -> Int in
            switch lead {
            case 0x80:
                output.append(0x80)
                return 1
            case 0xA1...0xDF:
                // Halfwidth katakana.
                output.append(0xFF61 - 0xA1 + UInt32(lead))
                return 1
            case 0x81...0x9F, 0xE0...0xFC:
                guard index + 1 < input.count else { return try output.truncated(at: index) }
                let trail = input[index + 1]
                var scalar: UInt32?
                if (0x40...0x7E).contains(trail) || (0x80...0xFC).contains(trail) {
                    let offset = trail < 0x7F ? 0x40 : 0x41
                    let leadingOffset = lead < 0xA0 ? 0x81 : 0xC1
                    let pointer = (Int(lead) - leadingOffset) * 188 + Int(trail) - offset
                    // Windows EUDC (8836-10715): Private Use Area.
                    scalar =
                        (8836...10715).contains(pointer)
                        ? UInt32(0xE000 - 8836 + pointer) : DecoderOutput.codePoint(pointer, in: jis0208)
                }
                return try output.pair(scalar, trail: trail, at: index)
            default:
                return try output.invalid(at: index)
            }
        }
    }

    /// EUC-JP (§12.1.1).
    static func decodeEUCJP(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextDecodingMode, encoding: TextEncoding
    ) throws(TextDecodingError) -> String {
        let jis0208 = EncodingTables.jis0208
        let count = input.count
        return try MultiByteDecoding.decode(input, mode: mode, encoding: encoding) {
            (output, lead, index) throws(TextDecodingError) -> Int in
            guard lead == 0x8E || lead == 0x8F || (0xA1...0xFE).contains(lead) else {
                return try output.invalid(at: index)
            }
            guard index + 1 < count else { return try output.truncated(at: index) }
            let second = input[index + 1]
            if lead == 0x8E && (0xA1...0xDF).contains(second) {
                // Halfwidth katakana.
                output.append(0xFF61 - 0xA1 + UInt32(second))
                return 2
            }
            if lead == 0x8F && (0xA1...0xFE).contains(second) {
                // JIS X 0212: the second byte becomes the leading byte of a two-byte character.
                guard index + 2 < count else { return try output.truncated(at: index) }
                let third = input[index + 2]
                if (0xA1...0xFE).contains(third),
                    let scalar = DecoderOutput.codePoint(
                        (Int(second) - 0xA1) * 94 + Int(third) - 0xA1, in: EncodingTables.jis0212)
                {
                    output.append(scalar)
                    return 3
                }
                try output.error(at: index)
                return third < 0x80 ? 2 : 3
            }
            var scalar: UInt32?
            if (0xA1...0xFE).contains(lead) && (0xA1...0xFE).contains(second) {
                scalar = DecoderOutput.codePoint((Int(lead) - 0xA1) * 94 + Int(second) - 0xA1, in: jis0208)
            }
            return try output.pair(scalar, trail: second, at: index)
        }
    }

    /// The states of the ISO-2022-JP decoder (§12.2.1).
    private enum ISO2022JPState {
        case ascii, roman, katakana, leadingByte, trailingByte, escapeStart, escape
    }

    /// ISO-2022-JP (§12.2.1).
    static func decodeISO2022JP(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextDecodingMode, encoding: TextEncoding
    ) throws(TextDecodingError) -> String {
        var output = DecoderOutput(input: input, mode: mode, encoding: encoding)
        let jis0208 = EncodingTables.jis0208
        let count = input.count
        var state = ISO2022JPState.ascii
        var outputState = ISO2022JPState.ascii
        var leading: UInt8 = 0
        var outputFlag = false
        var index = 0
        var leadingOffset = 0  // where the leading byte of the current two-byte character is
        var escapeOffset = 0  // where the ESC of the current escape sequence is
        while true {
            let byte: UInt8? = index < count ? input[index] : nil
            switch state {
            case .ascii, .roman, .katakana, .leadingByte:
                guard let byte else { return output.makeString() }
                if byte == 0x1B {
                    state = .escapeStart
                    escapeOffset = index
                    index += 1
                    continue
                }
                outputFlag = false
                index += 1
                switch state {
                case .ascii where byte <= 0x7F && byte != 0x0E && byte != 0x0F:
                    output.appendASCII(byte)
                case .roman where byte <= 0x7F && byte != 0x0E && byte != 0x0F:
                    if byte == 0x5C {
                        output.append(0xA5)
                    } else if byte == 0x7E {
                        output.append(0x203E)
                    } else {
                        output.appendASCII(byte)
                    }
                case .katakana where (0x21...0x5F).contains(byte):
                    output.append(0xFF61 - 0x21 + UInt32(byte))
                case .leadingByte where (0x21...0x7E).contains(byte):
                    leading = byte
                    leadingOffset = index - 1
                    state = .trailingByte
                default:
                    try output.error(at: index - 1)
                }
            case .trailingByte:
                state = .leadingByte
                guard let byte else {
                    try output.error(at: leadingOffset)
                    continue
                }
                index += 1
                if byte == 0x1B {
                    state = .escapeStart
                    escapeOffset = index - 1
                    try output.error(at: leadingOffset)
                } else if (0x21...0x7E).contains(byte) {
                    let pointer = (Int(leading) - 0x21) * 94 + Int(byte) - 0x21
                    if let scalar = DecoderOutput.codePoint(pointer, in: jis0208) {
                        output.append(scalar)
                    } else {
                        try output.error(at: leadingOffset)
                    }
                } else {
                    try output.error(at: leadingOffset)
                }
            case .escapeStart:
                if let byte, byte == 0x24 || byte == 0x28 {
                    leading = byte
                    state = .escape
                    index += 1
                    continue
                }
                // The byte (if any) is restored: decoded again in the output state.
                outputFlag = false
                state = outputState
                try output.error(at: escapeOffset)
            case .escape:
                let escapeLeading = leading
                leading = 0
                var newState: ISO2022JPState?
                switch (escapeLeading, byte) {
                case (0x28, 0x42): newState = .ascii
                case (0x28, 0x4A): newState = .roman
                case (0x28, 0x49): newState = .katakana
                case (0x24, 0x40), (0x24, 0x42): newState = .leadingByte
                default: newState = nil
                }
                if let newState {
                    state = newState
                    outputState = newState
                    let hadNoOutput = !outputFlag
                    outputFlag = true
                    index += 1
                    // Two escape sequences in a row (nothing decoded in between) is an error.
                    if !hadNoOutput { try output.error(at: escapeOffset) }
                    continue
                }
                // Restore the escape's second byte (and this one): decode them again in the output state.
                index = escapeOffset + 1
                outputFlag = false
                state = outputState
                try output.error(at: escapeOffset)
            }
        }
    }
}
