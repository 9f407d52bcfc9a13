import DecantCompression
import DecantCore

/// A small deflate compressor (RFC 1951) in a zlib wrapper (RFC 1950), for ``PNGEncoder``.
///
/// One final block with the fixed Huffman codes (§3.2.6) and greedy LZ77 matching over a 32 KiB window: each
/// position is hashed by its next three bytes, and at most ``maxChainSteps`` earlier positions with the same hash are
/// compared, so the work per input byte is bounded and compression is linear in the input. Filtered image rows
/// compress to within a few tens of percent of zlib's default level; speed, not the last byte, is the aim.
enum DeflateEncoder {
    /// The LZ77 window (§3.2.5: distances up to 32,768).
    static let windowSize = 1 << 15
    /// The shortest and longest matches deflate encodes.
    static let minMatch = 3
    static let maxMatch = 258
    /// The hash table has 2^hashBits heads.
    static let hashBits = 15
    /// The most earlier positions compared for one match: bounds the work per byte.
    static let maxChainSteps = 16

    /// The base length of each length symbol 257...285 (§3.2.5).
    static let lengthBase: [Int] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    /// The extra bits of each length symbol 257...285 (§3.2.5).
    static let lengthExtra: [Int] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    /// For each match length minus 3 (0...255), the index of its length symbol minus 257.
    static let lengthCode: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for code in 0..<29 {
            let end = code == 28 ? 256 : lengthBase[code + 1] - 3
            for length in (lengthBase[code] - 3)..<end where length < 256 { table[length] = UInt8(code) }
        }
        table[255] = 28  // 258 has its own symbol (285), not 284 with all extra bits set
        return table
    }()

    /// The fixed literal/length codes (§3.2.6), bit-reversed for LSB-first writing, and their lengths.
    static let literalCodes: [(code: UInt32, length: Int)] = (0..<288).map { symbol in
        let (code, length): (Int, Int)
        switch symbol {
        case 0...143: (code, length) = (0x30 + symbol, 8)
        case 144...255: (code, length) = (0x190 + symbol - 144, 9)
        case 256...279: (code, length) = (symbol - 256, 7)
        default: (code, length) = (0xC0 + symbol - 280, 8)
        }
        return (reversed(UInt32(code), length), length)
    }

    /// `code`'s low `length` bits in reverse order: Huffman codes are packed starting with their most significant bit
    /// (§3.1.1).
    static func reversed(_ code: UInt32, _ length: Int) -> UInt32 {
        var result: UInt32 = 0
        for bit in 0..<length where code & (1 << bit) != 0 { result |= 1 << (length - 1 - bit) }
        return result
    }

    /// `input` compressed as a zlib stream: header, one fixed-Huffman deflate block, Adler-32.
    static func zlib(_ input: [UInt8]) -> [UInt8] {
        var writer = BitWriter()
        writer.bytes.reserveCapacity(input.count / 4 + 64)
        writer.bytes += [0x78, 0x01]  // deflate, 32 KiB window, fastest level; (0x78 << 8 | 0x01) % 31 == 0
        writer.write(1, 1)  // BFINAL
        writer.write(1, 2)  // BTYPE 01: fixed Huffman codes
        input.withUnsafeBufferPointer { input in compress(input, into: &writer) }
        writer.writeLiteral(256)
        writer.finish()
        let adler = input.withUnsafeBytes { Checksum.adler32($0) }
        writer.bytes += [
            UInt8(adler >> 24), UInt8(truncatingIfNeeded: adler >> 16), UInt8(truncatingIfNeeded: adler >> 8),
            UInt8(truncatingIfNeeded: adler),
        ]
        return writer.bytes
    }

    /// Greedy LZ77 over `input`, written as fixed-Huffman symbols.
    static func compress(_ input: UnsafeBufferPointer<UInt8>, into writer: inout BitWriter) {
        let count = input.count
        // Positions are stored plus one, so 0 means "none".
        var head = [Int32](repeating: 0, count: 1 << hashBits)
        var previous = [Int32](repeating: 0, count: windowSize)
        func hash(_ position: Int) -> Int {
            let value = UInt32(input[position]) | UInt32(input[position + 1]) << 8 | UInt32(input[position + 2]) << 16
            return Int((value &* 2_654_435_761) >> UInt32(32 - hashBits))
        }
        func insert(_ position: Int) {
            let key = hash(position)
            previous[position & (windowSize - 1)] = head[key]
            head[key] = Int32(position + 1)
        }
        var position = 0
        while position < count {
            var bestLength = 0
            var bestDistance = 0
            if position + minMatch <= count {
                let limit = min(maxMatch, count - position)
                var candidate = Int(head[hash(position)]) - 1
                var steps = 0
                while candidate >= 0 && position - candidate <= windowSize && steps < maxChainSteps {
                    if input[candidate + bestLength] == input[position + bestLength] || bestLength == 0 {
                        var length = 0
                        while length < limit && input[candidate + length] == input[position + length] { length += 1 }
                        if length > bestLength {
                            bestLength = length
                            bestDistance = position - candidate
                            if length == limit { break }
                        }
                    }
                    let next = Int(previous[candidate & (windowSize - 1)]) - 1
                    // A chain entry overwritten by a newer position points forward: the chain ends there.
                    guard next < candidate else { break }
                    candidate = next
                    steps += 1
                }
            }
            if bestLength >= minMatch {
                writer.writeMatch(length: bestLength, distance: bestDistance)
                let end = position + bestLength
                while position < end {
                    if position + minMatch <= count { insert(position) }
                    position += 1
                }
            } else {
                writer.writeLiteral(Int(input[position]))
                if position + minMatch <= count { insert(position) }
                position += 1
            }
        }
    }

    /// Writes bits least significant first (§3.1.1), 32 at a time.
    struct BitWriter {
        /// The bytes written so far.
        var bytes: [UInt8] = []
        /// Bits not yet written to ``bytes``, the oldest in the low bits.
        var buffer: UInt64 = 0
        /// How many bits ``buffer`` holds (under 32 between calls).
        var bitCount = 0

        /// Appends the low `count` bits of `bits` (`count` ≤ 32).
        mutating func write(_ bits: UInt32, _ count: Int) {
            buffer |= UInt64(bits) << UInt64(bitCount)
            bitCount += count
            if bitCount >= 32 {
                bytes += [
                    UInt8(truncatingIfNeeded: buffer), UInt8(truncatingIfNeeded: buffer >> 8),
                    UInt8(truncatingIfNeeded: buffer >> 16), UInt8(truncatingIfNeeded: buffer >> 24),
                ]
                buffer >>= 32
                bitCount -= 32
            }
        }

        /// Writes literal/length symbol `symbol` with its fixed code.
        mutating func writeLiteral(_ symbol: Int) {
            let entry = DeflateEncoder.literalCodes[symbol]
            write(entry.code, entry.length)
        }

        /// Writes a match: its length symbol and extra bits, then its distance code (five bits) and extra bits.
        mutating func writeMatch(length: Int, distance: Int) {
            let lengthIndex = Int(DeflateEncoder.lengthCode[length - 3])
            writeLiteral(257 + lengthIndex)
            let lengthExtra = DeflateEncoder.lengthExtra[lengthIndex]
            if lengthExtra > 0 { write(UInt32(length - DeflateEncoder.lengthBase[lengthIndex]), lengthExtra) }
            // Distance codes (§3.2.5): 0...3 for distances 1...4, then two codes per power of two.
            let offset = distance - 1
            let code: Int
            let extra: Int
            let base: Int
            if offset < 4 {
                (code, extra, base) = (offset, 0, offset)
            } else {
                let log = Int.bitWidth - 1 - offset.leadingZeroBitCount
                code = 2 * log + ((offset >> (log - 1)) & 1)
                extra = code / 2 - 1
                base = (2 + (code & 1)) << extra
            }
            write(DeflateEncoder.reversed(UInt32(code), 5), 5)
            if extra > 0 { write(UInt32(offset - base), extra) }
        }

        /// Writes the bits left, padded with zero bits to a whole byte.
        mutating func finish() {
            while bitCount > 0 {
                bytes.append(UInt8(truncatingIfNeeded: buffer))
                buffer >>= 8
                bitCount = max(0, bitCount - 8)
            }
        }
    }
}
