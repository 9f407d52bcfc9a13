/// Writes LSB-first bit streams, as DEFLATE (RFC 1951 §3.1.1) and GIF's LZW codes pack them: values least
/// significant bit first, Huffman codes most significant bit first.
public struct BitWriter {
    /// The bytes written so far; the last one may be partly filled.
    public var bytes: [UInt8] = []
    /// The number of bits written.
    public var bitCount = 0

    /// Creates an empty writer.
    public init() {}

    /// Writes the low `bits` bits of `value`, least significant first.
    public mutating func write(_ value: Int, bits: Int) {
        for bit in 0..<bits {
            if bitCount % 8 == 0 { bytes.append(0) }
            if value >> bit & 1 == 1 { bytes[bytes.count - 1] |= 1 << UInt8(bitCount % 8) }
            bitCount += 1
        }
    }

    /// Writes a Huffman code of `length` bits, most significant bit first (RFC 1951 §3.1.1).
    public mutating func writeCode(_ code: Int, length: Int) {
        for bit in (0..<length).reversed() { write(code >> bit & 1, bits: 1) }
    }
}
