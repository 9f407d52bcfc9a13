import DecantCore

/// The error of a strict-mode decode: the first byte sequence that is not valid in the encoding.
public struct TextDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The encoding the bytes were decoded with.
    public let encoding: TextEncoding
    /// The byte offset of the first invalid sequence in the decoded bytes: where its first byte is (for a truncated
    /// multi-byte sequence, its lead byte; for a lone byte that cannot start a sequence, that byte).
    public let offset: Int
    /// A sentence naming the encoding, the offset and the bytes found there, such as
    /// `The bytes are not valid Shift_JIS at byte offset 17 (82 22).`
    public let description: String

    /// Creates an error.
    public init(encoding: TextEncoding, offset: Int, description: String) {
        self.encoding = encoding
        self.offset = offset
        self.description = description
    }

    /// An error at `offset` in `input`, describing up to four bytes found there.
    init(encoding: TextEncoding, offset: Int, input: UnsafeBufferPointer<UInt8>) {
        let shown = input.isEmpty ? [] : Array(input[min(offset, input.count)..<min(offset + 4, input.count)])
        var text = "The bytes are not valid \(encoding.name) at byte offset \(offset)"
        if shown.isEmpty {
            text += " (the input ends inside a character)."
        } else {
            let hex = shown.map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return byte < 0x10 ? "0" + digits : digits
            }
            text += " (" + hex.joined(separator: " ") + (offset + 4 < input.count ? " ...)." : ").")
        }
        self.init(encoding: encoding, offset: offset, description: text)
    }
}
