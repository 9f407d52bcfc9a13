extension Deflate {
    /// Writes an LSB-first bit stream (RFC 1951 §3.1.1) into a byte array, through a 64-bit bit buffer.
    struct BitWriter {
        /// The whole bytes written so far.
        private(set) var bytes: [UInt8]
        /// Bits not yet in ``bytes``, the oldest in the low bits.
        private var buffer: UInt64 = 0
        /// How many bits ``buffer`` holds: under 32 between calls.
        private var bufferedBits = 0

        /// A writer whose byte array starts with room for `capacity` bytes.
        init(capacity: Int) {
            bytes = []
            bytes.reserveCapacity(capacity)
        }

        /// The number of bits written so far.
        var bitCount: Int { bytes.count * 8 + bufferedBits }

        /// Appends the low `count` bits of `bits`, least significant first (`count` ≤ 32).
        @inline(__always)
        mutating func write(_ bits: UInt32, _ count: Int) {
            buffer |= UInt64(bits) << UInt64(bufferedBits)
            bufferedBits += count
            if bufferedBits >= 32 {
                let word = UInt32(truncatingIfNeeded: buffer)
                bytes.append(UInt8(truncatingIfNeeded: word))
                bytes.append(UInt8(truncatingIfNeeded: word >> 8))
                bytes.append(UInt8(truncatingIfNeeded: word >> 16))
                bytes.append(UInt8(truncatingIfNeeded: word >> 24))
                buffer >>= 32
                bufferedBits -= 32
            }
        }

        /// Pads with zero bits to a byte boundary and moves the buffered bits into ``bytes``.
        mutating func alignToByte() {
            while bufferedBits > 0 {
                bytes.append(UInt8(truncatingIfNeeded: buffer))
                buffer >>= 8
                bufferedBits = max(0, bufferedBits - 8)
            }
            buffer = 0
        }

        /// Appends whole bytes; the writer must be on a byte boundary (after ``alignToByte()``).
        mutating func appendBytes(_ more: some Collection<UInt8>) {
            bytes.append(contentsOf: more)
        }

        /// Appends whole bytes from raw memory; the writer must be on a byte boundary.
        mutating func appendBytes(_ more: UnsafeRawBufferPointer) {
            bytes.append(contentsOf: more)
        }
    }
}
