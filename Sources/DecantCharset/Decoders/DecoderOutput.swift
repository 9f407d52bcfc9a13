import DecantCore

/// The UTF-8 bytes a decoder produces, with the error handling of its mode.
///
/// Decoders append scalar values and call ``error(at:)`` where the standard's handler returns "error": in strict
/// mode that throws, in replacement mode it appends U+FFFD (WHATWG Encoding §4.1, "process an item").
///
/// The bytes go into a buffer this value owns (freed by `deinit`, hence `~Copyable`), one capacity check per append
/// and no other bookkeeping. Every append writes well-formed UTF-8 (surrogates and values above U+10FFFF become
/// U+FFFD), so ``makeString()`` copies the buffer into the string without validating it again.
struct DecoderOutput: ~Copyable {
    /// The start of the buffer.
    private var base: UnsafeMutablePointer<UInt8>
    /// The buffer's size in bytes.
    private var capacity: Int
    /// The bytes written so far.
    private var count = 0
    /// Whether ``error(at:)`` throws.
    let mode: TextDecodingMode
    /// The encoding, for errors.
    let encoding: TextEncoding
    /// The input, for errors.
    let input: UnsafeBufferPointer<UInt8>

    /// An empty output sized for `input` (which may grow it).
    init(input: UnsafeBufferPointer<UInt8>, mode: TextDecodingMode, encoding: TextEncoding) {
        self.input = input
        self.mode = mode
        self.encoding = encoding
        // Two-byte characters become three UTF-8 bytes; ASCII stays one.
        capacity = input.count + input.count / 2 + 16
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if _slowPath(count + extra > capacity) { grow(extra) }
    }

    /// Moves the bytes into a buffer at least twice as large, with room for `extra` more.
    @inline(never)
    private mutating func grow(_ extra: Int) {
        let newCapacity = Swift.max(capacity * 2, count + extra)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends an ASCII byte (a byte above 0x7F is appended as the code point of the same value).
    @inline(__always)
    mutating func appendASCII(_ byte: UInt8) {
        guard byte < 0x80 else { return append(UInt32(byte)) }
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends bytes the caller has checked to be well-formed UTF-8 that starts and ends on scalar boundaries.
    mutating func append(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends a scalar value. A surrogate or a value above U+10FFFF (which no index holds) becomes U+FFFD.
    @inline(__always)
    mutating func append(_ scalar: UInt32) {
        reserve(4)
        let target = base + count
        switch scalar {
        case 0..<0x80:
            target[0] = UInt8(truncatingIfNeeded: scalar)
            count += 1
        case 0x80..<0x800:
            target[0] = UInt8(truncatingIfNeeded: 0xC0 | (scalar >> 6))
            target[1] = UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F))
            count += 2
        case 0xD800..<0xE000:
            appendReplacement()
        case 0x800..<0x10000:
            target[0] = UInt8(truncatingIfNeeded: 0xE0 | (scalar >> 12))
            target[1] = UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F))
            target[2] = UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F))
            count += 3
        case 0x10000...0x10FFFF:
            target[0] = UInt8(truncatingIfNeeded: 0xF0 | (scalar >> 18))
            target[1] = UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 12) & 0x3F))
            target[2] = UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F))
            target[3] = UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F))
            count += 4
        default:
            appendReplacement()
        }
    }

    /// Appends U+FFFD.
    @inline(__always)
    mutating func appendReplacement() {
        reserve(3)
        base[count] = 0xEF
        base[count + 1] = 0xBF
        base[count + 2] = 0xBD
        count += 3
    }

    /// The decoder found an invalid sequence starting at `offset`: throws in strict mode, appends U+FFFD otherwise.
    mutating func error(at offset: Int) throws(TextDecodingError) {
        if mode == .strict { throw TextDecodingError(encoding: encoding, offset: offset, input: input) }
        appendReplacement()
    }

    /// The text: the bytes copied into a new string, without a second validation.
    consuming func makeString() -> String {
        let bytes = UnsafeBufferPointer(start: base, count: count)
        return String.decant_fromValidUTF8(bytes, isASCII: UTF8Decoder.isASCII(bytes))
    }
}

extension String {
    /// A string holding a copy of `bytes`, which the caller has validated: well-formed UTF-8, and all ASCII when
    /// `isASCII` is true (false is always safe: it only withholds a hint).
    ///
    /// With Swift 6.2's `UTF8Span(unchecked:)` and `String(copying:)` this is one allocation and one copy. The other
    /// public initializers from UTF-8 (`String(decoding:as:)`, `String(validating:as:)`,
    /// `String(unsafeUninitializedCapacity:initializingUTF8With:)`) all run the standard library's validator over
    /// the bytes again; before macOS 26 and its siblings, that is the fallback.
    static func decant_fromValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A string of the UTF-8 bytes `fill` writes into a scratch buffer of `capacity` bytes, copied into the string
    /// without a second validation, or the error `fill` returns.
    ///
    /// `fill` returns how many bytes it wrote (at most `capacity`), which must be well-formed UTF-8, and whether
    /// they are all ASCII. The scratch buffer is on the stack when it is small.
    static func decant_withValidUTF8<Failure: Error>(
        capacity: Int,
        _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Result<(count: Int, isASCII: Bool), Failure>
    ) -> Result<String, Failure> {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Swift.max(capacity, 1)) { buffer in
            fill(buffer).map { written in
                let count = Swift.min(Swift.max(written.count, 0), buffer.count)
                let bytes = UnsafeBufferPointer(rebasing: buffer[..<count])
                return String.decant_fromValidUTF8(bytes, isASCII: written.isASCII)
            }
        }
    }
}
