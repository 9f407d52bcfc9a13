/// The UTF-8 bytes a multi-byte decoder produces, with the error handling of its mode.
///
/// Decoders append scalar values and call ``error(at:)`` where the standard's handler returns "error": in strict
/// mode that throws, in replacement mode it appends U+FFFD (WHATWG Encoding §4.1, "process an item").
struct DecoderOutput {
    private(set) var bytes: [UInt8] = []
    let mode: TextDecodingMode
    let encoding: TextEncoding
    let input: UnsafeBufferPointer<UInt8>

    init(input: UnsafeBufferPointer<UInt8>, mode: TextDecodingMode, encoding: TextEncoding) {
        self.input = input
        self.mode = mode
        self.encoding = encoding
        // Two-byte characters become three UTF-8 bytes; ASCII stays one.
        bytes.reserveCapacity(input.count + input.count / 2 + 16)
    }

    /// Appends an ASCII byte.
    @inline(__always)
    mutating func appendASCII(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends a scalar value. A surrogate or a value above U+10FFFF (which no index holds) becomes U+FFFD.
    @inline(__always)
    mutating func append(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            bytes.append(UInt8(truncatingIfNeeded: scalar))
        case 0x80..<0x800:
            bytes.append(UInt8(truncatingIfNeeded: 0xC0 | (scalar >> 6)))
            bytes.append(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        case 0xD800..<0xE000:
            appendReplacement()
        case 0x800..<0x10000:
            bytes.append(UInt8(truncatingIfNeeded: 0xE0 | (scalar >> 12)))
            bytes.append(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F)))
            bytes.append(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        case 0x10000...0x10FFFF:
            bytes.append(UInt8(truncatingIfNeeded: 0xF0 | (scalar >> 18)))
            bytes.append(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 12) & 0x3F)))
            bytes.append(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F)))
            bytes.append(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        default:
            appendReplacement()
        }
    }

    /// Appends U+FFFD.
    @inline(__always)
    mutating func appendReplacement() {
        bytes.append(0xEF)
        bytes.append(0xBF)
        bytes.append(0xBD)
    }

    /// The decoder found an invalid sequence starting at `offset`: throws in strict mode, appends U+FFFD otherwise.
    mutating func error(at offset: Int) throws(TextDecodingError) {
        if mode == .strict { throw TextDecodingError(encoding: encoding, offset: offset, input: input) }
        appendReplacement()
    }

    /// The text.
    func makeString() -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    /// A string of `count` UTF-8 bytes written by `fill` into a buffer of at least `capacity` bytes, built in place
    /// where the platform allows.
    ///
    /// `fill` returns how many bytes it wrote (at most `count`; the rest of the buffer is scratch space); invalid UTF-8
    /// would be repaired, never trusted.
    static func decant_makeUTF8(
        count: Int, capacity: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Int
    ) -> String {
        let capacity = Swift.max(count, capacity)
        if #available(macOS 11, iOS 14, tvOS 14, watchOS 7, *) {
            // UInt8 is a trivial type: `fill` may store into the uninitialized buffer directly.
            return String(unsafeUninitializedCapacity: capacity) { buffer in Swift.min(fill(buffer), count) }
        }
        var bytes = [UInt8](repeating: 0, count: capacity)
        let written = bytes.withUnsafeMutableBufferPointer { Swift.min(fill($0), count) }
        return String(decoding: bytes.prefix(written), as: UTF8.self)
    }
}
