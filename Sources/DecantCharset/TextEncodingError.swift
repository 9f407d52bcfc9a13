import DecantCore

/// A character that an encoding cannot represent: the `underlying` error of the `SerializationError` that
/// ``TextEncoding/encode(_:mode:)`` throws in ``TextEncodingMode/strict`` mode.
public struct TextEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The encoding the text was encoded with.
    public let encoding: TextEncoding
    /// The character (Unicode scalar) the encoding has no bytes for.
    public let scalar: Unicode.Scalar
    /// Where ``scalar`` is in the text, in Unicode scalars from its start: `text.unicodeScalars` at this offset.
    public let offset: Int
    /// A sentence naming the character, its offset and the encoding, such as
    /// `U+2192 "→" at code point offset 3 has no windows-1252 encoding.`
    public var description: String {
        "\(Self.name(of: scalar)) at code point offset \(offset) has no \(encoding.name) encoding."
    }

    /// Creates an error.
    public init(encoding: TextEncoding, scalar: Unicode.Scalar, offset: Int) {
        self.encoding = encoding
        self.scalar = scalar
        self.offset = offset
    }

    /// `U+2192 "→"`; control characters and the like are shown by number only.
    static func name(of scalar: Unicode.Scalar) -> String {
        var digits = String(scalar.value, radix: 16, uppercase: true)
        while digits.count < 4 { digits = "0" + digits }
        let printable = scalar.value >= 0x20 && scalar.value != 0x7F && !(0x80...0x9F).contains(scalar.value)
        return printable ? "U+\(digits) \"\(Character(scalar))\"" : "U+\(digits)"
    }
}
