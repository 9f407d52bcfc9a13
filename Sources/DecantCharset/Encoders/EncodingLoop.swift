import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The loop every legacy encoder shares (WHATWG Encoding §4.4 "encode", run over a whole string): the input is the
/// string's UTF-8, which Swift guarantees to be well-formed; runs of ASCII are copied in bulk, every other scalar is
/// handed to the encoding's handler, and a scalar the handler cannot encode is an error or a numeric character
/// reference, per ``TextEncodingMode``.
///
/// The loop is linear in the input: each byte is read once, and each scalar costs one handler call (a table lookup).
enum EncodingLoop {
    /// Encodes `input` with `encodeScalar`, which appends the bytes of one non-ASCII scalar to the output and returns
    /// `true`, or returns `false` (appending nothing) when the encoding has no bytes for it.
    @inline(__always)
    static func run(
        _ input: UnsafeBufferPointer<UInt8>, encoding: TextEncoding, mode: TextEncodingMode,
        _ encodeScalar: (UInt32, EncoderOutput) -> Bool
    ) -> Result<Data, SerializationError> {
        let output = EncoderOutput(capacity: input.count)
        let count = input.count
        var index = 0
        while index < count {
            let byte = input[index]
            if byte < 0x80 {
                // Long ASCII runs are copied in bulk, short ones (words between accented letters) byte by byte.
                if index + 16 <= count, let base = input.baseAddress {
                    let raw = UnsafeRawPointer(base + index)
                    let words =
                        raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    if words & 0x8080_8080_8080_8080 == 0 {
                        let asciiRun = UTF8Decoder.asciiPrefixLength(UnsafeBufferPointer(rebasing: input[index...]))
                        output.append(UnsafeBufferPointer(rebasing: input[index..<index + asciiRun]))
                        index += asciiRun
                        continue
                    }
                }
                output.append(byte)
                index += 1
                continue
            }
            let (scalar, length) = scalar(in: input, at: index)
            if !encodeScalar(scalar, output) {
                switch mode {
                case .strict: return .failure(unencodable(scalar, at: index, in: input, encoding: encoding))
                case .html: appendReference(scalar, to: output)
                }
            }
            index += length
        }
        return .success(output.data)
    }

    /// The scalar whose UTF-8 starts at `index` (a lead byte of well-formed UTF-8), and its length in bytes. Never
    /// traps: a sequence cut short by the end of the buffer (which well-formed input never has) is U+FFFD for the rest
    /// of the buffer.
    @inline(__always)
    static func scalar(in input: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let lead = UInt32(input[index])
        if lead < 0x80 { return (lead, 1) }
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard index + length <= input.count else { return (0xFFFD, input.count - index) }
        let second = UInt32(input[index + 1]) & 0x3F
        switch length {
        case 2:
            return ((lead & 0x1F) << 6 | second, 2)
        case 3:
            return ((lead & 0x0F) << 12 | second << 6 | UInt32(input[index + 2]) & 0x3F, 3)
        default:
            let third = UInt32(input[index + 2]) & 0x3F
            let fourth = UInt32(input[index + 3]) & 0x3F
            return ((lead & 0x07) << 18 | second << 12 | third << 6 | fourth, 4)
        }
    }

    /// Appends `&#` the decimal value of `scalar` and `;` (the standard's "html" error mode).
    static func appendReference(_ scalar: UInt32, to output: EncoderOutput) {
        output.append(UInt8(ascii: "&"))
        output.append(UInt8(ascii: "#"))
        for digit in String(scalar).utf8 { output.append(digit) }
        output.append(UInt8(ascii: ";"))
    }

    /// The error for `scalar`, which starts at byte `byteOffset` of `input`: a `SerializationError` with code
    /// `encodingFailed`, the offset counted in scalars, and a ``TextEncodingError`` as its `underlying` error.
    static func unencodable(
        _ scalar: UInt32, at byteOffset: Int, in input: UnsafeBufferPointer<UInt8>, encoding: TextEncoding
    ) -> SerializationError {
        var offset = 0
        for byte in input[..<min(byteOffset, input.count)] where byte & 0xC0 != 0x80 { offset += 1 }
        let error = TextEncodingError(
            encoding: encoding, scalar: Unicode.Scalar(scalar) ?? "\u{FFFD}", offset: offset)
        return SerializationError(
            code: .encodingFailed,
            message: "The text cannot be written in \(encoding.name): \(error.description) Write it in UTF-8 "
                + "(charset=utf-8), which encodes every character, remove or replace the character, or encode in "
                + "html mode (TextEncodingMode.html) to write it as &#\(scalar);.",
            underlying: error)
    }
}

/// The bytes an encoder writes: one buffer that grows by doubling, so that appending a byte is a comparison and a
/// store. Its ``data`` copies the bytes written into a `Data` of exactly their size.
final class EncoderOutput {
    /// The buffer.
    private var base: UnsafeMutablePointer<UInt8>
    /// The buffer's size.
    private var capacity: Int
    /// How many bytes were written.
    private(set) var count = 0

    /// An empty output with room for `capacity` bytes (at least 16).
    init(capacity: Int) {
        self.capacity = max(16, capacity)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `extra` more bytes.
    @inline(never)
    private func grow(toHold extra: Int) {
        var newCapacity = capacity * 2
        while newCapacity - count < extra { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        base[count] = byte
        count += 1
    }

    /// Appends two bytes.
    @inline(__always)
    func append(_ first: UInt8, _ second: UInt8) {
        if capacity - count < 2 { grow(toHold: 2) }
        base[count] = first
        base[count + 1] = second
        count += 2
    }

    /// Appends the bytes of `bytes`.
    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if capacity - count < bytes.count { grow(toHold: bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// The bytes written.
    var data: Data { Data(bytes: base, count: count) }
}
