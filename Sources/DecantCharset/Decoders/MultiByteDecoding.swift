import DecantCore

/// The loop the WHATWG legacy multi-byte decoders share (Encoding §10–13: gb18030 and GBK, Big5, EUC-JP, Shift_JIS,
/// EUC-KR): ASCII bytes pass through, and each sequence that starts with another byte is decoded by the encoding's
/// own step. ISO-2022-JP, a state machine over escape sequences, has its own loop.
///
/// The standard's handlers read one byte at a time and "restore" bytes to the stream on errors; with the whole input
/// at hand, restoring is using fewer bytes, so a step returns how many bytes it used. Errors are reported at the
/// offset of the sequence's first byte.
enum MultiByteDecoding {
    /// Decodes `input`: ASCII bytes directly, every other byte through `sequence`, which is given the output, the
    /// byte and its offset and returns how many bytes it used (at least one).
    @inline(__always)
    static func decode(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextDecodingMode, encoding: TextEncoding,
        _ sequence: (inout DecoderOutput, UInt8, Int) throws(TextDecodingError) -> Int
    ) throws(TextDecodingError) -> String {
        var output = DecoderOutput(input: input, mode: mode, encoding: encoding)
        let count = input.count
        var index = 0
        while index < count {
            let byte = input[index]
            if byte < 0x80 {
                output.appendASCII(byte)
                index += 1
            } else {
                index += try sequence(&output, byte, index)
            }
        }
        return output.makeString()
    }
}

extension DecoderOutput {
    /// The end of a double-byte sequence: `scalar`, the index's code point for its two bytes, is appended and both
    /// bytes are used; without one, an error at the lead byte `index`, and an ASCII `trail` byte is restored (decoded
    /// again on its own). Returns the bytes used.
    @inline(__always)
    mutating func pair(_ scalar: UInt32?, trail: UInt8, at index: Int) throws(TextDecodingError) -> Int {
        if let scalar {
            append(scalar)
            return 2
        }
        try error(at: index)
        return trail < 0x80 ? 1 : 2
    }

    /// A sequence that the input ends inside, starting at `index`: one error, and the rest of the input used.
    @inline(__always)
    mutating func truncated(at index: Int) throws(TextDecodingError) -> Int {
        try error(at: index)
        return input.count - index
    }

    /// An invalid lead byte at `index`: an error, and the byte used.
    @inline(__always)
    mutating func invalid(at index: Int) throws(TextDecodingError) -> Int {
        try error(at: index)
        return 1
    }

    /// The code point `index` holds at `pointer`, or `nil` when the index has no entry there (0 marks a hole).
    @inline(__always)
    static func codePoint(_ pointer: Int, in index: [UInt16]) -> UInt32? {
        guard pointer >= 0, pointer < index.count else { return nil }
        let value = index[pointer]
        return value == 0 ? nil : UInt32(value)
    }
}
