import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The WHATWG legacy multi-byte Japanese encoders (Encoding §12): EUC-JP, ISO-2022-JP and Shift_JIS.
enum JapaneseEncoders {
    /// Pointers of index jis0208 that two bytes of 94 values each can carry (EUC-JP and ISO-2022-JP); every code
    /// point at a higher pointer (the IBM extensions) also has a lower one, which the reverse index returns first.
    static let jis0208RowsEnd = 94 * 94

    /// EUC-JP (§12.1.2).
    static func encodeEUCJP(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextEncodingMode, encoding: TextEncoding
    ) -> Result<Data, SerializationError> {
        let index = ReverseIndexes.jis0208
        return EncodingLoop.run(input, encoding: encoding, mode: mode) { codePoint, output in
            switch codePoint {
            case 0xA5:
                output.append(0x5C)
            case 0x203E:
                output.append(0x7E)
            case 0xFF61...0xFF9F:
                // Halfwidth katakana.
                output.append(0x8E)
                output.append(UInt8(codePoint - 0xFF61 + 0xA1))
            default:
                let mapped = codePoint == 0x2212 ? 0xFF0D : codePoint
                guard let pointer = index.pointer(for: mapped), pointer < jis0208RowsEnd else { return false }
                output.append(UInt8(pointer / 94 + 0xA1))
                output.append(UInt8(pointer % 94 + 0xA1))
            }
            return true
        }
    }

    /// Shift_JIS (§12.3.2), through the standard's "index Shift_JIS pointer" (``ReverseIndexes/shiftJIS``).
    static func encodeShiftJIS(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextEncodingMode, encoding: TextEncoding
    ) -> Result<Data, SerializationError> {
        let index = ReverseIndexes.shiftJIS
        return EncodingLoop.run(input, encoding: encoding, mode: mode) { codePoint, output in
            switch codePoint {
            case 0x80:
                output.append(0x80)
            case 0xA5:
                output.append(0x5C)
            case 0x203E:
                output.append(0x7E)
            case 0xFF61...0xFF9F:
                // Halfwidth katakana.
                output.append(UInt8(codePoint - 0xFF61 + 0xA1))
            default:
                let mapped = codePoint == 0x2212 ? 0xFF0D : codePoint
                guard let pointer = index.pointer(for: mapped) else { return false }
                let lead = pointer / 188
                let trail = pointer % 188
                output.append(UInt8(truncatingIfNeeded: lead + (lead < 0x1F ? 0x81 : 0xC1)))
                output.append(UInt8(trail + (trail < 0x3F ? 0x40 : 0x41)))
            }
            return true
        }
    }

    /// The states of the ISO-2022-JP encoder (§12.2.2).
    private enum ISO2022JPState {
        case ascii, roman, jis0208
    }

    /// Writes the escape sequence that switches to `state`: ESC ( B, ESC ( J or ESC $ B.
    private static func appendEscape(to state: ISO2022JPState, _ output: EncoderOutput) {
        output.append(0x1B)
        switch state {
        case .ascii: output.append(0x28, 0x42)
        case .roman: output.append(0x28, 0x4A)
        case .jis0208: output.append(0x24, 0x42)
        }
    }

    /// ISO-2022-JP (§12.2.2): ASCII, JIS X 0201 Roman and JIS X 0208 with escape sequences between them; the output
    /// always ends in the ASCII state.
    ///
    /// Where the standard "restores" a code point to the input after switching state, the inner loop simply runs
    /// again for the same code point; each code point switches state at most twice, so the encoder stays linear.
    static func encodeISO2022JP(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextEncodingMode, encoding: TextEncoding
    ) -> Result<Data, SerializationError> {
        let index = ReverseIndexes.jis0208
        let katakana = EncodingTables.iso2022JPKatakana
        let output = EncoderOutput(capacity: input.count + input.count / 2)
        var state = ISO2022JPState.ascii
        var position = 0
        while position < input.count {
            let (scalar, length) = EncodingLoop.scalar(in: input, at: position)
            var codePoint = scalar
            // The code point the standard reports an error with (U+FFFD for the three controls that would corrupt
            // the state), or nil once the code point is written.
            var failure: UInt32?
            while true {
                if state != .jis0208 && (codePoint == 0x0E || codePoint == 0x0F || codePoint == 0x1B) {
                    failure = 0xFFFD
                    break
                }
                if state == .ascii && codePoint < 0x80 {
                    output.append(UInt8(codePoint))
                    break
                }
                if state == .roman
                    && ((codePoint < 0x80 && codePoint != 0x5C && codePoint != 0x7E) || codePoint == 0xA5
                        || codePoint == 0x203E)
                {
                    output.append(codePoint == 0xA5 ? 0x5C : codePoint == 0x203E ? 0x7E : UInt8(codePoint))
                    break
                }
                if codePoint < 0x80 {
                    appendEscape(to: .ascii, output)
                    state = .ascii
                    continue
                }
                if (codePoint == 0xA5 || codePoint == 0x203E) && state != .roman {
                    appendEscape(to: .roman, output)
                    state = .roman
                    continue
                }
                if codePoint == 0x2212 { codePoint = 0xFF0D }
                if (0xFF61...0xFF9F).contains(codePoint), Int(codePoint - 0xFF61) < katakana.count {
                    codePoint = UInt32(katakana[Int(codePoint - 0xFF61)])
                }
                guard let pointer = index.pointer(for: codePoint), pointer < jis0208RowsEnd else {
                    if state == .jis0208 {
                        appendEscape(to: .ascii, output)
                        state = .ascii
                        continue
                    }
                    failure = codePoint
                    break
                }
                if state != .jis0208 {
                    appendEscape(to: .jis0208, output)
                    state = .jis0208
                    continue
                }
                output.append(UInt8(pointer / 94 + 0x21))
                output.append(UInt8(pointer % 94 + 0x21))
                break
            }
            if let failure {
                // Errors happen in the ASCII and Roman states only, where the reference's characters are written
                // as they are.
                switch mode {
                case .strict:
                    return .failure(EncodingLoop.unencodable(scalar, at: position, in: input, encoding: encoding))
                case .html: EncodingLoop.appendReference(failure, to: output)
                }
            }
            position += length
        }
        if state != .ascii { appendEscape(to: .ascii, output) }
        return .success(output.data)
    }
}
